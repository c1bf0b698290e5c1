// hpcab-tool: the agent's tools (SPEC §6) as a command line (task, baseline, score, submit), as
// a stdio MCP server (mcp), and the built-in optimizers (builtin). Wiring only:
// harness/judge_client.h, harness/mcp.h and harness/builtin.h do the work.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <string>

#include "harness/builtin.h"
#include "harness/judge_client.h"
#include "harness/mcp.h"

using namespace hpcab;
using namespace hpcab::harness;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

int report(JudgeClient& client, const Result<json>& r) {
  return report_judge_answer(client, r, std::cout, std::cerr);
}

// A local failure: its message on stderr, kExitUsage.
int usage_error(const std::string& message) {
  std::cerr << "hpcab-tool: " << message << "\n";
  return kExitUsage;
}

constexpr const char* kDescription =
    "hpcab-tool: an agent's tools for one HPCAgent-Bench judge. Settings come from JUDGE_URL, "
    "JUDGE_RANK, RUN_ID, AGENT, KERNEL, LANGUAGE, JUDGE_TOKEN, HPCAB_SUBMISSION_POLICY, "
    "HPCAB_TOOL_STATE, HPCAB_TOOLS (the tools this arm allows; default task,baseline,score,"
    "submit); "
    "HPCAB_USAGE_URL (set by the harness) supplies the token count sent with score and submit, "
    "HPCAB_SEARCH_URL the search tool's endpoint. "
    "The flags override them. A judge that is unreachable or answers 429/502/503/504 is waited "
    "out with backoff and a GET /health probe for up to HPCAB_OUTAGE_WAIT_S (600 s; progress "
    "lines on stderr); every submit carries an Idempotency-Key, so a retry never grades twice. "
    "Prints the judge's JSON answer. Exit codes: 0 graded answer, 1 judge HTTP error, 2 usage "
    "or local error, 3 judge unreachable (after the outage wait), 4 submit refused by the "
    "single-submission policy, 5 (builtin autopar) the compiler failed (numba-jit: its compile "
    "check could not run), 6 the tool is not in "
    "the arm's HPCAB_TOOLS. search's refusals (no search in the arm, the episode's queries spent, "
    "the endpoint down) exit 1.";

// What the command line sets: the values the flags write into (preset from the environment
// before parsing, so a flag overrides its variable) and the subcommands, one of which ran.
struct CommandLine {
  JudgeSettings settings;
  std::string kernel = env_or("KERNEL", "");
  std::string language, preset, precision, token_file, policy, source_path, reference, query;
  McpSettings mcp_flags;
  BuiltinOptions builtin_options;
  CLI::App *task = nullptr, *baseline = nullptr, *score = nullptr, *submit = nullptr,
           *profile = nullptr, *syntax_check = nullptr, *search = nullptr, *mcp = nullptr,
           *builtin = nullptr;
};

// The flags every subcommand takes: where the judge is and how calls to it behave.
void add_judge_flags(CLI::App& app, CommandLine& cl) {
  JudgeSettings& settings = cl.settings;
  app.add_option("--url", settings.url, "judge URL (JUDGE_URL)");
  app.add_option("--rank", settings.rank, "rank sent to the judge (JUDGE_RANK, default 0)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--run-id", settings.run_id, "run id sent with grades (RUN_ID)");
  app.add_option("--optimizer", settings.optimizer, "optimizer name sent with grades (AGENT)");
  app.add_option("--token-file", cl.token_file,
                 "bearer token file (JUDGE_TOKEN / JUDGE_TOKEN_FILE)");
  app.add_option("--ca-file", settings.ca_file, "CA certificates for https (JUDGE_CA_FILE)");
  app.add_option("--timeout", settings.timeout_s, "seconds to wait for the judge")
      ->check(CLI::PositiveNumber);
  app.add_option("--policy", cl.policy, "submission policy (HPCAB_SUBMISSION_POLICY)")
      ->check(CLI::IsMember({"single", "multiple"}));
  app.add_option("--state-dir", settings.state_dir,
                 "where the single-policy marker lives (HPCAB_TOOL_STATE, else the cwd)");
  app.add_option("--outage-wait", settings.outage.wait_s,
                 "seconds a call waits out an unreachable or overloaded judge before it fails "
                 "(HPCAB_OUTAGE_WAIT_S, default 600; 0: fail at once)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--outage-backoff-max", settings.outage.backoff_max_s,
                 "longest pause in seconds between two tries while waiting "
                 "(HPCAB_OUTAGE_BACKOFF_MAX_S, default 15)")
      ->check(CLI::PositiveNumber);
}

// task, baseline (queries); score, submit (grades); profile, syntax-check (the judge's helpers);
// search (the harness's search endpoint).
void add_tool_commands(CLI::App& app, CommandLine& cl) {
  auto add_query = [&](CLI::App* cmd) {
    cmd->add_option("KERNEL", cl.kernel, "kernel id (default: $KERNEL)");
    cmd->add_option("--kernel", cl.kernel, "kernel id (KERNEL)");
    cmd->add_option("--language", cl.language,
                    "c, cpp, fortran, python, cuda or hip (LANGUAGE, default c)");
    cmd->add_option("--preset", cl.preset, "problem-size preset (default: the judge's)");
    cmd->add_option("--precision", cl.precision, "fp64 (default) or another supported precision");
  };
  cl.task = app.add_subcommand("task", "print the task spec (GET /task/KERNEL)");
  add_query(cl.task);
  cl.baseline = app.add_subcommand("baseline", "print the baseline times (GET /baseline)");
  add_query(cl.baseline);

  auto add_grade = [&](CLI::App* cmd) {
    cmd->add_option("FILE", cl.source_path, "source file to grade")->required();
    cmd->add_option("--kernel", cl.kernel, "kernel id (KERNEL)");
    cmd->add_option("--language", cl.language,
                    "c, cpp, fortran, python, cuda or hip (LANGUAGE, else from the file "
                    "extension: .py is python)");
    cmd->add_option("--preset", cl.preset, "problem-size preset (default: the judge's)");
    cmd->add_option("--precision", cl.precision, "fp64 (default) or another supported precision");
  };
  cl.score = app.add_subcommand("score", "grade FILE on the public inputs (POST /score)");
  add_grade(cl.score);
  cl.submit = app.add_subcommand(
      "submit", "submit FILE as the final answer: public and hidden inputs (POST /submit)");
  add_grade(cl.submit);
  cl.profile = app.add_subcommand(
      "profile",
      "run FILE once on a public input in the judge's sandbox with its profiler attached (POST "
      "/profile): prints time per call, counters (cycles, instructions, IPC, cache and branch "
      "misses where the host exposes them; software counters always), hotspots and the roofline "
      "position; nothing is graded or recorded. The judge limits how often (429 rate_limited)");
  cl.profile->add_option("FILE", cl.source_path, "source file")->required();
  cl.syntax_check = app.add_subcommand(
      "syntax-check",
      "compile FILE with the judge's exact flags for its language without running it (POST "
      "/syntax-check): prints the judge's answer, verdict ok or build_error with the compiler's "
      "diagnostics (file, line, column, severity, message); nothing is graded or recorded");
  cl.syntax_check->add_option("FILE", cl.source_path, "source file")->required();
  cl.search = app.add_subcommand(
      "search",
      "search the web through the harness (HPCAB_SEARCH_URL, set for arms whose TOOLS has "
      "search): prints {query, results: [{title, url, snippet}], dropped}; the arm limits the "
      "domains, the results per query and the queries per episode, and records every query");
  cl.search->add_option("QUERY", cl.query, "what to search for (quote it)")->required();
}

void add_mcp_command(CLI::App& app, CommandLine& cl) {
  cl.mcp = app.add_subcommand(
      "mcp", "serve the tools over MCP: JSON-RPC 2.0, one message per line on stdin/stdout");
  McpSettings& flags = cl.mcp_flags;
  cl.mcp
      ->add_option("--max-calls", flags.max_calls,
                   "tool calls in flight at once; more are refused (HPCAB_MCP_MAX_CALLS, "
                   "default 4)")
      ->check(CLI::Range(1, 1000));
  cl.mcp
      ->add_option("--progress-interval", flags.progress_interval_s,
                   "seconds between progress notifications of a call that asked for them "
                   "(HPCAB_MCP_PROGRESS_INTERVAL, default 5)")
      ->check(CLI::Range(0.01, 3600.0));
  cl.mcp
      ->add_option("--shutdown-grace", flags.shutdown_grace_s,
                   "at the end of stdin, seconds calls in flight may still finish before they "
                   "are cancelled (HPCAB_MCP_SHUTDOWN_GRACE, default: as long as they take)")
      ->check(CLI::NonNegativeNumber);
}

void add_builtin_command(CLI::App& app, CommandLine& cl) {
  BuiltinOptions& options = cl.builtin_options;
  options.reference_c = env_or("HPCAB_REFERENCE_C", "");
  options.reference_py = env_or("HPCAB_REFERENCE_PY", "");
  options.python = env_or("HPCAB_PYTHON", options.python);
  options.library_dir = env_or("HPCAB_LIBRARY_DIR", "");
  auto* builtin = cl.builtin = app.add_subcommand(
      "builtin",
      "run a built-in optimizer and submit its answer (POST /submit): identity submits the "
      "kernel's reference.c (with LANGUAGE=python its reference.py); replay submits "
      "DIR/<kernel>.<ext> or DIR/<kernel>/kernel.<ext> (nothing, exit 0, when there is none); "
      "autopar-gcc and autopar-polly compile reference.c with automatic parallelization into a "
      "library in the library folder and submit it (the judge needs --shared-dir containing "
      "that folder and --input-mode library or any); numba-jit (LANGUAGE=python) submits "
      "reference.py with the kernel's function compiled by numba.njit, once a local compile "
      "check under HPCAB_PYTHON (default /usr/bin/python3) shows Numba compiles it, else "
      "reference.py unchanged (said on stderr). Exit 5 when the compiler fails or numba-jit's "
      "check cannot run.");
  builtin
      ->add_option("KIND", options.kind,
                   "identity, replay, autopar-gcc, autopar-polly or numba-jit")
      ->required()
      ->check(CLI::IsMember({"identity", "replay", "autopar-gcc", "autopar-polly", "numba-jit"}));
  builtin->add_option("--kernel", cl.kernel, "kernel id (KERNEL)");
  builtin->add_option("--language", cl.language,
                      "c, cpp, fortran, python, cuda or hip (LANGUAGE; default c, python for "
                      "numba-jit)");
  builtin->add_option("--reference", cl.reference,
                      "the kernel's reference.c (HPCAB_REFERENCE_C), or with a .py name its "
                      "reference.py (HPCAB_REFERENCE_PY); else found in the corpus (numba-jit "
                      "and identity for python: else the judge's reference_numpy)");
  builtin->add_option("--python", options.python,
                      "numba-jit: the interpreter of the compile check (HPCAB_PYTHON, default "
                      "/usr/bin/python3)");
  builtin->add_option("--library-dir", options.library_dir,
                      "autopar: where the library is written (HPCAB_LIBRARY_DIR); must be inside "
                      "the judge's shared directory");
  builtin->add_option("--dir", options.replay_dir, "replay: the folder of prepared sources");
  builtin
      ->add_option("--threads", options.threads,
                   "autopar-gcc: -ftree-parallelize-loops=N (default: the online CPUs)")
      ->check(CLI::PositiveNumber);
  builtin
      ->add_option("--compile-timeout", options.compile_timeout_s,
                   "autopar: seconds the compiler may take (default 600)")
      ->check(CLI::PositiveNumber);
  builtin->add_option("--preset", options.preset, "problem-size preset (default: the judge's)");
  builtin->add_option("--precision", options.precision,
                      "fp64 (default) or another supported precision");
}

// The arm's TOOLS (HPCAB_TOOLS): a tool outside them is refused before anything is sent. The
// built-ins submit, so they need `submit`. Returns whether the called tool may run.
bool tool_allowed(const CommandLine& cl, const ToolSet& tools) {
  std::string called;
  for (auto [cmd, name] :
       {std::pair{cl.task, "task"}, std::pair{cl.baseline, "baseline"},
        std::pair{cl.score, "score"}, std::pair{cl.submit, "submit"},
        std::pair{cl.profile, "profile"}, std::pair{cl.syntax_check, "syntax-check"},
        std::pair{cl.search, "search"}, std::pair{cl.builtin, "submit"}}) {
    if (*cmd) called = name;
  }
  if (std::string why; !called.empty() && tools.check(called, &why) != ToolRefusal::kNone) {
    std::cerr << "hpcab-tool: " << why << "\n";
    return false;
  }
  return true;
}

// The judge settings with the flags that need more than a copy: --token-file, --policy.
Result<JudgeSettings> final_settings(const CommandLine& cl) {
  JudgeSettings settings = cl.settings;
  if (!cl.token_file.empty()) {
    auto t = read_client_token_file(cl.token_file);
    if (!t) return t.error();
    settings.token = *t;
  }
  if (!cl.policy.empty()) settings.single_submission = cl.policy == "single";
  return settings;
}

// mcp: the environment's MCP settings, overridden by the flags given.
int serve_mcp(JudgeClient& client, const CommandLine& cl, const ToolSet& tools) {
  auto mcp_settings = McpSettings::from_env();
  if (!mcp_settings) return usage_error(mcp_settings.error().message);
  const McpSettings& flags = cl.mcp_flags;
  if (cl.mcp->count("--max-calls")) mcp_settings->max_calls = flags.max_calls;
  if (cl.mcp->count("--progress-interval")) {
    mcp_settings->progress_interval_s = flags.progress_interval_s;
  }
  if (cl.mcp->count("--shutdown-grace")) mcp_settings->shutdown_grace_s = flags.shutdown_grace_s;
  McpServer server(client, {cl.kernel, env_or("LANGUAGE", "c"), tools}, *mcp_settings);
  server.serve(std::cin, std::cout);
  return 0;
}

// score or submit: FILE in the language of --language, else LANGUAGE, else its extension.
int grade_file(JudgeClient& client, const CommandLine& cl) {
  auto source = read_source_file(cl.source_path);
  if (!source) return usage_error(source.error().message);
  Submission s{cl.kernel, cl.language, *source, cl.preset, cl.precision};
  if (s.language.empty()) s.language = env_or("LANGUAGE", "");
  if (s.language.empty()) s.language = language_from_extension(cl.source_path).value_or("");
  if (s.language.empty()) {
    std::cerr << "hpcab-tool: cannot tell the language of '" << cl.source_path
              << "': pass --language (c, cpp, fortran, python, cuda or hip) or set LANGUAGE\n";
    return kExitUsage;
  }
  if (*cl.syntax_check) return report(client, client.syntax_check(s));
  if (*cl.profile) return report(client, client.profile(s));
  return report(client, *cl.score ? client.score(s) : client.submit(s));
}

// Runs the subcommand that was called, against `client`.
int run_command(JudgeClient& client, CommandLine& cl, const ToolSet& tools) {
  if (*cl.mcp) return serve_mcp(client, cl, tools);
  if (*cl.builtin) {
    cl.builtin_options.kernel = cl.kernel;
    // '' (neither set): each built-in's own default (c; python for numba-jit).
    cl.builtin_options.language = !cl.language.empty() ? cl.language : env_or("LANGUAGE", "");
    if (!cl.reference.empty()) {
      const bool py = cl.reference.size() > 3 && cl.reference.ends_with(".py");
      (py ? cl.builtin_options.reference_py : cl.builtin_options.reference_c) = cl.reference;
    }
    return run_builtin(client, cl.builtin_options, std::cout, std::cerr);
  }
  if (*cl.search) return report(client, client.search(cl.query));
  if (*cl.task || *cl.baseline) {
    const std::string lang = !cl.language.empty() ? cl.language : env_or("LANGUAGE", "c");
    return report(client, *cl.task ? client.task(cl.kernel, lang, cl.preset, cl.precision)
                                   : client.baseline(cl.kernel, lang, cl.preset, cl.precision));
  }
  return grade_file(client, cl);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{kDescription};
  app.require_subcommand(1);
  app.fallthrough();  // global flags may follow the subcommand

  auto tools = tool_set_from_env();
  if (!tools) return usage_error(tools.error().message);
  auto env = JudgeSettings::from_env();
  if (!env) return usage_error(env.error().message);
  CommandLine cl;
  cl.settings = *env;
  add_judge_flags(app, cl);
  add_tool_commands(app, cl);
  add_mcp_command(app, cl);
  add_builtin_command(app, cl);
  CLI11_PARSE(app, argc, argv);

  if (!tool_allowed(cl, *tools)) return kExitToolRefused;
  auto settings = final_settings(cl);
  if (!settings) return usage_error(settings.error().message);
  JudgeClient client(*settings);
  // Outage progress on stderr (the agent's log under the harness); stdout stays the answer.
  client.set_outage_observer(
      [](const OutageEvent& e) { std::cerr << "hpcab-tool: " << outage_line("judge", e) << "\n"; });
  return run_command(client, cl, *tools);
}
