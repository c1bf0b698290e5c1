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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "hpcab-tool: an agent's tools for one HPCAgent-Bench judge. Settings come from JUDGE_URL, "
      "JUDGE_RANK, RUN_ID, AGENT, KERNEL, LANGUAGE, JUDGE_TOKEN, HPCAB_SUBMISSION_POLICY, "
      "HPCAB_TOOL_STATE, HPCAB_TOOLS (the tools this arm allows; default task,baseline,score,"
      "submit); "
      "HPCAB_USAGE_URL (set by the harness) supplies the token count sent with score and submit. "
      "The flags override them. A judge that is unreachable or answers 429/502/503/504 is waited "
      "out with backoff and a GET /health probe for up to HPCAB_OUTAGE_WAIT_S (600 s; progress "
      "lines on stderr); every submit carries an Idempotency-Key, so a retry never grades twice. "
      "Prints the judge's JSON answer. Exit codes: 0 graded answer, 1 judge HTTP error, 2 usage "
      "or local error, 3 judge unreachable (after the outage wait), 4 submit refused by the "
      "single-submission policy, 5 (builtin autopar) the compiler failed, 6 the tool is not in "
      "the arm's HPCAB_TOOLS (or is not implemented: profile, syntax-check)."};
  app.require_subcommand(1);
  app.fallthrough();  // global flags may follow the subcommand

  auto tools = tool_set_from_env();
  if (!tools) {
    std::cerr << "hpcab-tool: " << tools.error().message << "\n";
    return kExitUsage;
  }
  auto env = JudgeSettings::from_env();
  if (!env) {
    std::cerr << "hpcab-tool: " << env.error().message << "\n";
    return kExitUsage;
  }
  JudgeSettings settings = *env;
  std::string kernel = env_or("KERNEL", "");
  std::string language;
  std::string preset;
  std::string precision;
  std::string token_file;
  std::string policy;
  app.add_option("--url", settings.url, "judge URL (JUDGE_URL)");
  app.add_option("--rank", settings.rank, "rank sent to the judge (JUDGE_RANK, default 0)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--run-id", settings.run_id, "run id sent with grades (RUN_ID)");
  app.add_option("--optimizer", settings.optimizer, "optimizer name sent with grades (AGENT)");
  app.add_option("--token-file", token_file, "bearer token file (JUDGE_TOKEN / JUDGE_TOKEN_FILE)");
  app.add_option("--ca-file", settings.ca_file, "CA certificates for https (JUDGE_CA_FILE)");
  app.add_option("--timeout", settings.timeout_s, "seconds to wait for the judge")
      ->check(CLI::PositiveNumber);
  app.add_option("--policy", policy, "submission policy (HPCAB_SUBMISSION_POLICY)")
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

  auto add_query = [&](CLI::App* cmd) {
    cmd->add_option("KERNEL", kernel, "kernel id (default: $KERNEL)");
    cmd->add_option("--kernel", kernel, "kernel id (KERNEL)");
    cmd->add_option("--language", language, "c, cpp, fortran, cuda or hip (LANGUAGE, default c)");
    cmd->add_option("--preset", preset, "problem-size preset (default: the judge's)");
    cmd->add_option("--precision", precision, "fp64 (default) or another supported precision");
  };
  auto* task = app.add_subcommand("task", "print the task spec (GET /task/KERNEL)");
  add_query(task);
  auto* baseline = app.add_subcommand("baseline", "print the baseline times (GET /baseline)");
  add_query(baseline);

  std::string source_path;
  auto add_grade = [&](CLI::App* cmd) {
    cmd->add_option("FILE", source_path, "source file to grade")->required();
    cmd->add_option("--kernel", kernel, "kernel id (KERNEL)");
    cmd->add_option("--language", language,
                    "c, cpp, fortran, cuda or hip (LANGUAGE, else from the file extension)");
    cmd->add_option("--preset", preset, "problem-size preset (default: the judge's)");
    cmd->add_option("--precision", precision, "fp64 (default) or another supported precision");
  };
  auto* score = app.add_subcommand("score", "grade FILE on the public inputs (POST /score)");
  add_grade(score);
  auto* submit = app.add_subcommand(
      "submit", "submit FILE as the final answer: public and hidden inputs (POST /submit)");
  add_grade(submit);
  // Accepted names without an implementation (docs/harness.md "Tools"): always refused.
  auto* profile = app.add_subcommand(
      "profile", "not implemented: refused (exit 6); TOOLS may name it for a planned arm");
  profile->add_option("FILE", source_path, "source file");
  profile->allow_extras();
  auto* syntax_check = app.add_subcommand(
      "syntax-check", "not implemented: refused (exit 6); TOOLS may name it for a planned arm");
  syntax_check->add_option("FILE", source_path, "source file");
  syntax_check->allow_extras();
  auto* mcp = app.add_subcommand(
      "mcp", "serve the tools over MCP: JSON-RPC 2.0, one message per line on stdin/stdout");
  McpSettings mcp_flags;
  mcp->add_option("--max-calls", mcp_flags.max_calls,
                  "tool calls in flight at once; more are refused (HPCAB_MCP_MAX_CALLS, default 4)")
      ->check(CLI::Range(1, 1000));
  mcp->add_option("--progress-interval", mcp_flags.progress_interval_s,
                  "seconds between progress notifications of a call that asked for them "
                  "(HPCAB_MCP_PROGRESS_INTERVAL, default 5)")
      ->check(CLI::Range(0.01, 3600.0));
  mcp->add_option("--shutdown-grace", mcp_flags.shutdown_grace_s,
                  "at the end of stdin, seconds calls in flight may still finish before they are "
                  "cancelled (HPCAB_MCP_SHUTDOWN_GRACE, default: as long as they take)")
      ->check(CLI::NonNegativeNumber);

  BuiltinOptions builtin_options;
  builtin_options.reference_c = env_or("HPCAB_REFERENCE_C", "");
  builtin_options.library_dir = env_or("HPCAB_LIBRARY_DIR", "");
  auto* builtin = app.add_subcommand(
      "builtin",
      "run a built-in optimizer and submit its answer (POST /submit): identity submits the "
      "kernel's reference.c; replay submits DIR/<kernel>.<ext> or DIR/<kernel>/kernel.<ext> "
      "(nothing, exit 0, when there is none); autopar-gcc and autopar-polly compile reference.c "
      "with automatic parallelization into a library in the library folder and submit it (the "
      "judge needs --shared-dir containing that folder and --input-mode library or any). Exit "
      "5 when the compiler fails.");
  builtin
      ->add_option("KIND", builtin_options.kind, "identity, replay, autopar-gcc or autopar-polly")
      ->required()
      ->check(CLI::IsMember({"identity", "replay", "autopar-gcc", "autopar-polly"}));
  builtin->add_option("--kernel", kernel, "kernel id (KERNEL)");
  builtin->add_option("--language", language, "c, cpp, fortran, cuda or hip (LANGUAGE, default c)");
  builtin->add_option("--reference", builtin_options.reference_c,
                      "the kernel's reference.c (HPCAB_REFERENCE_C, else found in the corpus)");
  builtin->add_option("--library-dir", builtin_options.library_dir,
                      "autopar: where the library is written (HPCAB_LIBRARY_DIR); must be inside "
                      "the judge's shared directory");
  builtin->add_option("--dir", builtin_options.replay_dir,
                      "replay: the folder of prepared sources");
  builtin
      ->add_option("--threads", builtin_options.threads,
                   "autopar-gcc: -ftree-parallelize-loops=N (default: the online CPUs)")
      ->check(CLI::PositiveNumber);
  builtin
      ->add_option("--compile-timeout", builtin_options.compile_timeout_s,
                   "autopar: seconds the compiler may take (default 600)")
      ->check(CLI::PositiveNumber);
  builtin->add_option("--preset", builtin_options.preset,
                      "problem-size preset (default: the judge's)");
  builtin->add_option("--precision", builtin_options.precision,
                      "fp64 (default) or another supported precision");

  CLI11_PARSE(app, argc, argv);

  // The arm's TOOLS (HPCAB_TOOLS): a tool outside them is refused before anything is sent. The
  // built-ins submit, so they need `submit`.
  {
    std::string called;
    for (auto [cmd, name] :
         {std::pair{task, "task"}, std::pair{baseline, "baseline"}, std::pair{score, "score"},
          std::pair{submit, "submit"}, std::pair{profile, "profile"},
          std::pair{syntax_check, "syntax-check"}, std::pair{builtin, "submit"}}) {
      if (*cmd) called = name;
    }
    if (std::string why; !called.empty() && tools->check(called, &why) != ToolRefusal::kNone) {
      std::cerr << "hpcab-tool: " << why << "\n";
      return kExitToolRefused;
    }
  }

  if (!token_file.empty()) {
    auto t = read_client_token_file(token_file);
    if (!t) {
      std::cerr << "hpcab-tool: " << t.error().message << "\n";
      return kExitUsage;
    }
    settings.token = *t;
  }
  if (!policy.empty()) settings.single_submission = policy == "single";
  JudgeClient client(settings);
  // Outage progress on stderr (the agent's log under the harness); stdout stays the answer.
  client.set_outage_observer(
      [](const OutageEvent& e) { std::cerr << "hpcab-tool: " << outage_line("judge", e) << "\n"; });

  if (*mcp) {
    auto mcp_settings = McpSettings::from_env();
    if (!mcp_settings) {
      std::cerr << "hpcab-tool: " << mcp_settings.error().message << "\n";
      return kExitUsage;
    }
    if (mcp->count("--max-calls")) mcp_settings->max_calls = mcp_flags.max_calls;
    if (mcp->count("--progress-interval"))
      mcp_settings->progress_interval_s = mcp_flags.progress_interval_s;
    if (mcp->count("--shutdown-grace")) mcp_settings->shutdown_grace_s = mcp_flags.shutdown_grace_s;
    McpServer server(client, {kernel, env_or("LANGUAGE", "c"), *tools}, *mcp_settings);
    server.serve(std::cin, std::cout);
    return 0;
  }
  if (*builtin) {
    builtin_options.kernel = kernel;
    builtin_options.language = !language.empty() ? language : env_or("LANGUAGE", "c");
    return run_builtin(client, builtin_options, std::cout, std::cerr);
  }
  if (*task || *baseline) {
    const std::string lang = !language.empty() ? language : env_or("LANGUAGE", "c");
    return report(client, *task ? client.task(kernel, lang, preset, precision)
                                : client.baseline(kernel, lang, preset, precision));
  }
  auto source = read_source_file(source_path);
  if (!source) {
    std::cerr << "hpcab-tool: " << source.error().message << "\n";
    return kExitUsage;
  }
  Submission s{kernel, language, *source, preset, precision};
  if (s.language.empty()) s.language = env_or("LANGUAGE", "");
  if (s.language.empty()) s.language = language_from_extension(source_path).value_or("");
  if (s.language.empty()) {
    std::cerr << "hpcab-tool: cannot tell the language of '" << source_path
              << "': pass --language (c, cpp, fortran, cuda or hip) or set LANGUAGE\n";
    return kExitUsage;
  }
  return report(client, *score ? client.score(s) : client.submit(s));
}
