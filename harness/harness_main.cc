// hpcab-harness: runs the episodes of an arm (SPEC §6; docs/harness.md). Wiring only: the arm
// file is parsed by harness/arm.h, the episodes run in harness/daemon.h.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>

#include "harness/agents.h"
#include "harness/arm.h"
#include "harness/daemon.h"
#include "harness/episode_db.h"
#include "harness/experiment.h"
#include "harness/plan.h"

using namespace hpcab;
using namespace hpcab::harness;
namespace fs = std::filesystem;

namespace {

// Exit codes (docs/harness.md).
constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoJudge = 3;
constexpr int kExitInfra = 4;
constexpr int kExitInterrupted = 130;

// A non-negative decimal integer (--worker-offset), or nullopt.
std::optional<int> parse_count(const std::string& s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoi(s);
}

std::string default_tool_path() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("hpcab-tool") : (self.parent_path() / "hpcab-tool").string();
}

// The exit code of one arm's run (docs/harness.md), with its message on stderr.
int exit_code_of(const Result<RunSummary>& summary, const std::string& arm_file) {
  if (!summary) {
    std::cerr << "hpcab-harness: " << summary.error().message << "\n";
    return kExitError;
  }
  if (summary->interrupted) return kExitInterrupted;
  if (summary->attempts_run > 0 && summary->reached_judge == 0) {
    std::cerr << "hpcab-harness: no episode reached a judge (" << summary->attempts_run
              << " attempts); check JUDGE_URLS and that the judges are up\n";
    return kExitNoJudge;
  }
  const EpisodeCounts& c = summary->counts;
  if (c.infra_failed > 0 || (summary->retired_workers > 0 && c.waiting() > 0)) {
    std::cerr << "hpcab-harness: " << c.infra_failed << " episode(s) infra_failed and "
              << c.waiting() << " waiting: a judge or model server failed or stayed unreachable ("
              << summary->retired_workers
              << " worker(s) retired); run again to rerun them (status: hpcab-harness status "
              << arm_file << ")\n";
    return kExitInfra;
  }
  return kExitOk;
}

std::string join_list(const std::vector<std::string>& v, const char* sep = ",") {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : sep) + x;
  return out;
}

// What `plan` shows about the agent beyond the episodes: the interventions (tools, prompt,
// skills, budget convention) and the kind's full command line as worker `worker` would run it
// for the arm's first episode (the prompt stands for PROMPT.md's text).
void print_agent_setup(const Arm& arm, const std::string& tool_path, const std::string& workspaces,
                       int worker, std::ostream& out) {
  out << "tools: " << join_list(arm.tool_names()) << " (submission policy " << arm.submission_policy
      << ")\n";
  if (!arm.prompt_template.empty()) {
    out << "prompt: template " << arm.prompt_template.string() << "\n";
  } else if (!arm.prompt_fragments.empty()) {
    out << "prompt: fragments " << join_list(arm.prompt_fragments) << " from "
        << arm.prompt_fragments_dir.string() << "\n";
  } else {
    out << "prompt: the built-in template\n";
  }
  if (!arm.skills_dir.empty()) out << "skills: " << arm.skills_dir.string() << " -> skills/\n";
  out << "token budget: "
      << (arm.token_budget > 0 ? std::to_string(arm.token_budget) + " " + arm.token_budget_kind +
                                     (arm.token_budget_kind == "total" ? " tokens" : " cost")
                               : std::string("none"))
      << ", rerun once at " << arm.limit_rerun_factor << "x when a limit stops an episode\n";
  if (arm.kernels.empty()) return;
  const Pin pin = pin_worker(arm, worker);
  AgentContext ctx;
  ctx.kind = arm.agent;
  ctx.agent_command = arm.agent_command;
  ctx.max_turns = arm.agent_settings.max_turns;
  ctx.disallowed_tools = arm.agent_settings.disallowed_tools;
  ctx.extra_args = arm.agent_settings.extra_args;
  ctx.workspace = (fs::absolute(workspaces) / arm.name / arm.kernels[0] / "0" / "attempt-1")
                      .lexically_normal()
                      .string();
  ctx.prompt_file = ctx.workspace + "/PROMPT.md";
  ctx.prompt = "<the text of PROMPT.md>";
  ctx.kernel = arm.kernels[0];
  ctx.language = arm.language;
  ctx.model = arm.model;
  ctx.model_url = pin.inference_url.empty() ? "" : "http://127.0.0.1:<proxy port>";
  ctx.judge_url = pin.judge_url;
  ctx.rank = pin.rank;
  ctx.run_id = episode_id(arm.name, arm.kernels[0], 0) + "#1";
  ctx.worker = worker;
  ctx.tool_path = tool_path;
  auto line = agent_command_line(ctx);
  out << "agent command (" << arm.agent << ", worker " << worker << ", " << ctx.run_id
      << "): " << (line ? *line : "error: " + line.error().message) << "\n";
  if (arm.agent == "claude-code" || arm.agent == "openhands" || arm.agent == "codex") {
    out << "mcp: hpcab-tool mcp (" << tool_path
        << " mcp) with HPCAB_TOOLS=" << join_list(arm.tool_names()) << ", in "
        << (arm.agent == "claude-code" ? ".hpcab-agent/mcp.json"
            : arm.agent == "codex"     ? ".hpcab-agent/codex/config.toml"
                                       : ".hpcab-agent/openhands/mcp.json")
        << "\n";
  }
}

// Everything the command line sets: the options of every subcommand.
struct Cli {
  std::string arm_file, db_path, corpus_dir = default_corpus_dir().string();
  std::string judge_urls, inference_urls, shard_text = "0/1", offset_text = "0";
  DaemonOptions opt;
  std::string workspaces = "var/episodes";
  std::string api_key_env = "HPCAB_UPSTREAM_API_KEY";
  bool quiet = false;
  std::vector<std::string> vary_texts, experiment_judge_dbs;
  std::string experiment_out, experiment_name;
  bool dry_run = false;
  bool brief = false;
  CLI::App* run = nullptr;
  CLI::App* experiment = nullptr;
  CLI::App* status = nullptr;
  CLI::App* plan = nullptr;
  CLI::App* launch_env = nullptr;
};

// ARM, --db, --corpus and the URL overrides, on every subcommand.
void add_common(CLI::App* cmd, Cli& c) {
  cmd->add_option("ARM", c.arm_file, "arm file (KEY=value lines or JSON)")->required();
  cmd->add_option("--db", c.db_path, "episode database (default: the arm's STATE_DB)");
  cmd->add_option("--corpus", c.corpus_dir, "corpus folder the arm's kernels resolve against");
  cmd->add_option("--judge-urls", c.judge_urls,
                  "comma list replacing the arm's JUDGE_URLS (rank order), e.g. from a launcher");
  cmd->add_option("--inference-urls", c.inference_urls,
                  "comma list replacing the arm's INFERENCE_URLS");
}

// --shard on run, plan and status; --worker-offset on run and plan (docs/harness.md).
void add_shard(CLI::App* cmd, Cli& c) {
  cmd->add_option("--shard", c.shard_text,
                  "I/N: only the arm's episodes whose queue position seq % N == I (one daemon "
                  "per agent node runs shard i/A; default 0/1, the whole arm)");
}

void add_offset(CLI::App* cmd, Cli& c) {
  cmd->add_option("--worker-offset", c.offset_text,
                  "K: this daemon's worker w is the arm's worker K + w for pinning (inference "
                  "and judge URL, rank) and the recorded worker number (default 0)");
}

// The daemon's options, on `run` and on `experiment` (which runs every arm it makes).
void add_run_options(CLI::App* cmd, Cli& c) {
  cmd->add_option("--workspaces", c.workspaces, "folder for episode workspaces (var/episodes)");
  cmd->add_option("--tool", c.opt.tool_path, "hpcab-tool binary (default: beside hpcab-harness)");
  cmd->add_option("--api-key-env", c.api_key_env,
                  "environment variable holding the real inference API key the proxies send "
                  "upstream (agents only ever see a dummy key)");
  cmd->add_option("--upstream-ca-file", c.opt.upstream_ca_file,
                  "extra CA bundle (PEM) trusted for https INFERENCE_URLS")
      ->check(CLI::ExistingFile);
  cmd->add_option("--term-grace", c.opt.term_grace_s, "seconds between SIGTERM and SIGKILL (5)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--progress-interval", c.opt.progress_interval_s,
                  "seconds between progress lines (1 on a terminal, 10 otherwise)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--quiet,-q", c.quiet, "no progress line and no episode log");
  cmd->add_option("--health-interval", c.opt.health_interval_s,
                  "seconds between two GET /health probes of each worker's judge (2; at most a "
                  "quarter of OUTAGE_WAIT_S)")
      ->check(CLI::PositiveNumber);
}

void add_run_commands(CLI::App& app, Cli& c) {
  c.run = app.add_subcommand(
      "run",
      "run every waiting episode of ARM; a restarted run skips finished episodes and reruns "
      "interrupted ones and those an infrastructure failure ended (infra_failed). An unreachable "
      "or overloaded judge or model server is waited out for OUTAGE_WAIT_S. Exit: 0 queue "
      "drained, 1 error, 2 usage, 3 no episode reached a judge, 4 episodes are left infra_failed "
      "or waiting for the next run (a judge or model server stayed down), 130 stopped by a "
      "signal (running episodes are left for the next run)");
  add_common(c.run, c);
  add_shard(c.run, c);
  add_offset(c.run, c);
  add_run_options(c.run, c);

  c.experiment = app.add_subcommand(
      "experiment",
      "a one-component intervention (docs/harness.md \"Interventions\"): writes one treatment "
      "arm per --vary (the control ARM with that key changed, named <control>.<key>-<value>) "
      "and experiment.json beside them, then runs the control and every treatment in turn, as "
      "`run` does. `hpcab report compare <dir>/experiment.json` reads the pairing. Exit: as run "
      "(the first arm that does not exit 0 stops the experiment), 2 also for a bad --vary");
  add_common(c.experiment, c);
  add_run_options(c.experiment, c);
  c.experiment
      ->add_option("--vary", c.vary_texts,
                   "KEY=VALUE: one treatment arm differing from the control in KEY (repeatable: "
                   "one treatment each), e.g. AGENT=autopar-gcc, TOOLS=task,baseline,submit")
      ->required();
  c.experiment->add_option("--out", c.experiment_out,
                           "folder for the treatment arms and experiment.json (default "
                           "var/experiments/<name>)");
  c.experiment->add_option("--name", c.experiment_name,
                           "the experiment's name (default <control NAME>.experiment)");
  c.experiment->add_option("--judge-db", c.experiment_judge_dbs,
                           "the judges' databases (repeatable), recorded in experiment.json for "
                           "`hpcab report compare`");
  c.experiment->add_flag(
      "--dry-run", c.dry_run,
      "print the arms, their differences and their plans; write and run nothing");
}

void add_view_commands(CLI::App& app, Cli& c) {
  c.status = app.add_subcommand("status", "print ARM's progress and its episode table");
  add_common(c.status, c);
  add_shard(c.status, c);
  c.status->add_flag("--brief", c.brief, "only the status line");

  c.plan = app.add_subcommand(
      "plan", "print ARM's episodes and each worker's pinning without running anything");
  add_common(c.plan, c);
  add_shard(c.plan, c);
  add_offset(c.plan, c);

  c.launch_env = app.add_subcommand(
      "launch-env",
      "print ARM's settings for the Slurm launcher (deploy/slurm) as KEY=value lines, one per "
      "line, values verbatim; the launcher reads the arm through this, never on its own");
  add_common(c.launch_env, c);
}

// --db, --judge-urls, --inference-urls over an arm's own values (also each treatment's).
Status apply_overrides(const Cli& c, Arm& a) {
  if (!c.db_path.empty()) a.state_db = c.db_path;
  for (auto [flag, text, target] :
       {std::tuple{"--judge-urls", &c.judge_urls, &a.judge_urls},
        std::tuple{"--inference-urls", &c.inference_urls, &a.inference_urls}}) {
    if (text->empty()) continue;
    auto urls = parse_url_list(*text);
    if (!urls) {
      std::cerr << "hpcab-harness: " << flag << ": " << urls.error().message << "\n";
      return urls.error();
    }
    *target = *urls;
  }
  return Ok{};
}

int print_launch_env(const Arm& arm, const std::string& arm_file) {
  const Arm::Deploy& d = arm.deploy;
  std::ostringstream coverage;
  coverage << d.min_coverage;
  const std::pair<const char*, std::string> lines[] = {
      {"NAME", arm.name},
      {"KERNELS", join_list(arm.kernels)},
      {"KERNEL_COUNT", std::to_string(arm.kernels.size())},
      {"AGENT", arm.agent},
      {"USES_MODEL", arm.uses_model() ? "1" : "0"},
      {"MODEL", arm.model},
      {"INFERENCE_URLS", join_list(arm.inference_urls)},
      {"JUDGE_URLS", join_list(arm.judge_urls)},
      {"WORKERS", std::to_string(arm.workers)},
      {"STATE_DB", arm.state_db.string()},
      {"INFERENCE_NODES", std::to_string(d.inference_nodes)},
      {"AGENT_NODES", std::to_string(d.agent_nodes)},
      {"JUDGE_NODES", std::to_string(d.judge_nodes)},
      {"INFERENCE_COMMAND", d.inference_command},
      {"INFERENCE_PORT", std::to_string(d.inference_port)},
      {"JUDGE_PORT", std::to_string(d.judge_port)},
      {"JUDGE_CONFIG", d.judge_config.empty() ? "" : fs::absolute(d.judge_config).string()},
      {"MIN_COVERAGE", coverage.str()},
      {"JUDGE_STARTUP_S", std::to_string(d.judge_startup_s)},
      {"INFERENCE_STARTUP_S", std::to_string(d.inference_startup_s)},
  };
  for (const auto& [key, value] : lines) {
    if (value.find_first_of("\n\r") != std::string::npos) {
      std::cerr << "hpcab-harness: " << arm_file << ": " << key
                << " contains a line break, which the launcher cannot take\n";
      return kExitUsage;
    }
  }
  for (const auto& [key, value] : lines) std::cout << key << "=" << value << "\n";
  return kExitOk;
}

int print_plan(const Arm& arm, const Cli& c) {
  const Shard& shard = c.opt.shard;
  const int offset = c.opt.worker_offset;
  if (shard.count > 1) {
    std::cout << "shard " << shard.index << "/" << shard.count << ": episodes with seq % "
              << shard.count << " == " << shard.index << "\n";
  }
  if (gpu_language(arm.language)) {
    std::cout << "GPU arm (" << arm.language
              << "): at run time workers are pinned only to the judges below whose GET /health "
                 "reports a GPU (none: the run fails before any episode)\n";
  }
  for (int w = offset; w < offset + arm.workers; ++w) {
    Pin p = pin_worker(arm, w);
    std::cout << "worker " << w << ": judge " << p.judge_url << " rank " << p.rank
              << (p.inference_url.empty() ? "" : ", inference " + p.inference_url) << "\n";
  }
  for (const auto& e : plan_episodes(arm, shard)) std::cout << e.seq << " " << e.id << "\n";
  print_agent_setup(arm, c.opt.tool_path, c.workspaces, offset, std::cout);
  return kExitOk;
}

int print_status(const Arm& arm, const Cli& c) {
  const Shard& shard = c.opt.shard;
  auto db = EpisodeDb::open(arm.state_db.string());
  if (!db) {
    std::cerr << "hpcab-harness: " << db.error().message << "\n";
    return kExitError;
  }
  auto counts = (*db)->counts(arm.name, shard);
  auto rows = (*db)->list(arm.name, shard);
  if (!counts || !rows) {
    std::cerr << "hpcab-harness: " << (!counts ? counts.error().message : rows.error().message)
              << "\n";
    return kExitError;
  }
  const int64_t planned = static_cast<int64_t>(plan_episodes(arm, shard).size());
  std::cout << arm.name;
  if (shard.count > 1) std::cout << " shard " << shard.index << "/" << shard.count;
  std::cout << ": " << status_line(*counts);
  if (counts->total() < planned) std::cout << " | not yet enqueued " << planned - counts->total();
  std::cout << "\n";
  if (!c.brief) std::cout << episode_table(*rows);
  return kExitOk;
}

using ArmsToRun = std::vector<std::pair<Arm, std::string>>;  // arm, its file

// The experiment's arms (the control first) into `to_run` and its experiment.json written; an
// exit code when the command ends here (a usage error, an error, a dry run).
std::optional<int> plan_experiment_arms(const Arm& arm, const Cli& c, ArmsToRun* to_run,
                                        fs::path* experiment_file) {
  std::vector<Variation> variations;
  for (const auto& t : c.vary_texts) {
    auto v = parse_variation(t);
    if (!v) {
      std::cerr << "hpcab-harness: " << v.error().message << "\n";
      return kExitUsage;
    }
    variations.push_back(*v);
  }
  auto e =
      plan_experiment(c.arm_file, variations, c.experiment_out, c.experiment_name, c.corpus_dir);
  if (!e) {
    std::cerr << "hpcab-harness: experiment: " << e.error().message << "\n";
    return kExitUsage;
  }
  for (const auto& d : c.experiment_judge_dbs) e->judge_dbs.emplace_back(d);
  if (!c.db_path.empty()) {
    e->control.state_db = fs::absolute(c.db_path).lexically_normal();
    for (auto& t : e->treatments) t.state_db = e->control.state_db;
  }
  to_run->emplace_back(arm, c.arm_file);
  for (const auto& t : e->treatments) {
    auto ta = parse_arm(t.arm_text, t.file.string(), t.file.parent_path());
    if (!ta) {
      std::cerr << "hpcab-harness: experiment: " << ta.error().message << "\n";
      return kExitUsage;
    }
    ta->kernels = arm.kernels;  // same KERNELS text, same corpus: the same resolution
    ta->file = t.file;
    if (auto st = apply_overrides(c, *ta); !st) return kExitUsage;
    to_run->emplace_back(std::move(*ta), t.file.string());
  }
  std::cout << "experiment " << e->name << ": control " << e->control.name << " ("
            << e->control.file.string() << ")\n";
  for (const auto& t : e->treatments) {
    std::cout << "  treatment " << t.name << ": " << t.vary.key << "=" << t.vary.value << "\n";
  }
  if (c.dry_run) {
    std::cout << "dry run: would write " << e->file.string() << " and the treatment arms:\n";
    for (const auto& t : e->treatments)
      std::cout << "--- " << t.file.string() << "\n" << t.arm_text;
    for (const auto& [a, file] : *to_run) {
      std::cout << "--- plan of " << a.name << "\n";
      for (const auto& ep : plan_episodes(a)) std::cout << ep.seq << " " << ep.id << "\n";
      print_agent_setup(a, c.opt.tool_path, c.workspaces, 0, std::cout);
    }
    return kExitOk;
  }
  if (auto st = write_experiment(*e); !st) {
    std::cerr << "hpcab-harness: experiment: " << st.error().message << "\n";
    return kExitError;
  }
  std::cout << "wrote " << e->file.string() << "\n";
  *experiment_file = e->file;
  return std::nullopt;
}

// Runs the arms in turn until one does not exit 0 or a stop signal comes.
int run_arms(const ArmsToRun& to_run, DaemonOptions opt, bool experiment) {
  // SIGINT/SIGTERM: a graceful stop. Blocked in every thread (set before any is created) and
  // taken synchronously by one waiter, so no handler runs in the middle of the daemon's work.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  std::atomic<bool> stop{false};
  opt.stop = &stop;
  std::thread waiter([&] {
    int sig = 0;
    if (sigwait(&stop_signals, &sig) == 0 && sig != 0) {
      if (!stop.exchange(true)) {
        std::cerr << "\nhpcab-harness: signal " << sig
                  << ": stopping the running agents; their episodes stay for the next run\n";
      }
    }
  });

  int code = kExitOk;
  for (const auto& [a, file] : to_run) {
    if (stop.load()) {
      code = kExitInterrupted;
      break;
    }
    if (experiment) std::cerr << "hpcab-harness: experiment: running arm " << a.name << "\n";
    code = exit_code_of(run_arm(a, opt), file);
    if (code != kExitOk) break;
  }
  if (!stop.exchange(true)) pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  return code;
}

// `run` and `experiment`: the arms, checked, run with the daemon's options.
int run_command(const Arm& arm, Cli& c) {
  ArmsToRun to_run;
  fs::path experiment_file;
  if (*c.experiment) {
    if (auto code = plan_experiment_arms(arm, c, &to_run, &experiment_file)) return *code;
  } else {
    to_run.emplace_back(arm, c.arm_file);
  }
  for (const auto& [a, file] : to_run) {
    if (a.uses_model() && a.inference_urls.empty()) {
      std::cerr << "hpcab-harness: " << file << ": AGENT=" << a.agent
                << " needs inference URLs: this arm leaves them to the Slurm launcher "
                   "(INFERENCE_NODES > 0), so pass --inference-urls\n";
      return kExitUsage;
    }
  }
  DaemonOptions& opt = c.opt;
  opt.workspace_root = c.workspaces;
  opt.corpus_dir = c.corpus_dir;
  if (const char* k = std::getenv(c.api_key_env.c_str())) opt.upstream_api_key = k;
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  if (!c.quiet) {
    opt.progress = &std::cerr;
    opt.log = &std::cerr;
    opt.progress_tty = tty;
    if (opt.progress_interval_s <= 0) opt.progress_interval_s = tty ? 1 : 10;
  }
  const int code = run_arms(to_run, opt, c.experiment->parsed());
  if (*c.experiment && code == kExitOk) {
    std::cout << "experiment done; compare the arms with: hpcab report compare "
              << experiment_file.string() << "\n";
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "hpcab-harness: runs the agent episodes of an arm against HPCAgent-Bench judges and "
      "records them in an episode database (docs/harness.md)."};
  app.require_subcommand(1);
  Cli c;
  c.opt.tool_path = default_tool_path();
  c.opt.progress_interval_s = -1;
  add_run_commands(app, c);
  add_view_commands(app, c);
  CLI11_PARSE(app, argc, argv);

  auto shard = parse_shard(c.shard_text);
  if (!shard) {
    std::cerr << "hpcab-harness: --shard " << shard.error().message << "\n";
    return kExitUsage;
  }
  auto worker_offset = parse_count(c.offset_text);
  if (!worker_offset) {
    std::cerr << "hpcab-harness: --worker-offset '" << c.offset_text
              << "' is not a non-negative integer (the global number of this daemon's worker 0)\n";
    return kExitUsage;
  }
  c.opt.shard = *shard;
  c.opt.worker_offset = *worker_offset;

  auto arm = load_arm(c.arm_file, c.corpus_dir);
  if (!arm) {
    std::cerr << "hpcab-harness: " << arm.error().message << "\n";
    return kExitUsage;
  }
  if (auto st = apply_overrides(c, *arm); !st) return kExitUsage;
  if (*c.launch_env) return print_launch_env(*arm, c.arm_file);
  if (*c.plan) return print_plan(*arm, c);
  if (*c.status) return print_status(*arm, c);
  return run_command(*arm, c);
}
