// hpcab-judge: wiring only. Configuration (defaults < --config file < HPCAB_* environment <
// flags), state (key, database, build cache), the grader, the queue, the routes, the server;
// then wait for SIGINT/SIGTERM and shut down in order: stop accepting, finish in-flight grades
// (bounded), close the database, remove this process's scratch run dir.
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>

#include "common/manifest.h"
#include "common/process.h"
#include "judge/build/build.h"
#include "judge/config/config.h"
#include "judge/config/secrets.h"
#include "judge/grade/grader.h"
#include "judge/grade/selfcheck.h"
#include "judge/host/gpu.h"
#include "judge/http/access.h"
#include "judge/http/routes.h"
#include "judge/http/server.h"
#include "judge/sandbox/sandbox.h"
#include "judge/sandbox/scratch.h"
#include "judge/store/store.h"

extern char** environ;

namespace fs = std::filesystem;
using namespace hpcab;
using namespace hpcab::judge;

namespace {

int die(const std::string& msg) {
  spdlog::error("{}", msg);
  return 2;
}

// As root, sandboxed processes run as an unprivileged uid: every directory above the paths they
// need must be traversable by others, or every grade would fail with a confusing bwrap error.
std::string untraversable(const fs::path& p) {
  if (geteuid() != 0) return "";
  fs::path cur;
  for (const auto& part : fs::absolute(p)) {
    cur /= part;
    struct stat st;
    if (stat(cur.c_str(), &st) != 0) break;
    if (S_ISDIR(st.st_mode) && (st.st_mode & S_IXOTH) == 0) return cur.string();
  }
  return "";
}

// Settings: defaults < --config file < HPCAB_* environment < flags. Returns the exit code when
// the process must end now (--help, a bad setting), -1 to go on.
int configure(int argc, char** argv, JudgeConfig& config, bool& selfcheck) {
  CLI::App app{"hpcab-judge: the HPCAgent-Bench grading service (HTTP, JSON)"};
  CLI::App* check = app.add_subcommand(
      "selfcheck",
      "check this host instead of serving: grade references of each class against their own "
      "builds and a parallel gemm against its directly timed ratio; print a JSON report on "
      "stdout; exit 0 when fit to grade here, 1 when not (docs/grading.md \"Self-check\")");
  check->fallthrough();
  std::string config_file;
  JudgeConfig flags;  // only the fields set on the command line are applied
  std::string host, state_dir, corpus_dir, shared_dir, input_mode, preset, db, key, scratch;
  std::string agent_tokens, admin_tokens, tls_cert, tls_key;
  int port = -1, rank = -1, timed_calls = -1, queue_depth = -1, workers = -1;
  app.add_option("--config", config_file, "JSON settings file (see docs/operations.md)");
  app.add_option("--host", host, "listen address (default 127.0.0.1)");
  app.add_option("--port", port, "listen port (default 8800; 0 picks a free one)");
  app.add_option("--rank", rank, "this judge's rank (default 0)");
  app.add_option("--state-dir", state_dir, "database, key and build cache (default var)");
  app.add_option("--corpus", corpus_dir, "corpus root (default: the source tree's corpus/)");
  app.add_option("--shared-dir", shared_dir, "where source_file/library paths resolve");
  app.add_option("--input-mode", input_mode, "source, library or any (default source)");
  app.add_option("--preset", preset, "default preset for /score and /submit (default S)");
  app.add_option("--db", db, "database path (default <state-dir>/judge.db)");
  app.add_option("--key-file", key, "secret key path (default <state-dir>/secret.key)");
  app.add_option("--scratch-dir", scratch, "sandbox work dirs (default under the temp dir)");
  app.add_option("--timed-calls", timed_calls, "timed calls per configuration (default 20)");
  app.add_option("--queue-depth", queue_depth, "grades waiting before 429 (default 16)");
  app.add_option("--workers", workers, "concurrent grades (default 1)");
  app.add_option("--agent-tokens-file", agent_tokens,
                 "bearer tokens of agents, one per line, mode 0600 (default: none)");
  app.add_option("--admin-tokens-file", admin_tokens,
                 "bearer tokens of admins (also enables /admin/*), mode 0600 (default: none)");
  app.add_option("--tls-cert", tls_cert, "PEM certificate chain: serve HTTPS only");
  app.add_option("--tls-key", tls_key, "PEM private key of --tls-cert");
  CLI11_PARSE(app, argc, argv);
  selfcheck = check->parsed();
  // Logs go to stderr; stdout carries only the "listening on" line that scripts wait for.
  spdlog::set_default_logger(spdlog::stderr_color_mt("hpcab-judge"));

  if (!config_file.empty()) {
    std::ifstream in(config_file);
    if (!in) return die("cannot read --config " + config_file);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    if (auto st = apply_config_json(config, text, config_file); !st) return die(st.error().message);
  }
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  if (auto st = apply_config_env(config, env); !st) return die(st.error().message);
  if (!host.empty()) config.host = host;
  if (port >= 0) config.port = static_cast<uint16_t>(port);
  if (rank >= 0) config.rank = rank;
  if (!state_dir.empty()) config.state_dir = state_dir;
  if (!corpus_dir.empty()) config.corpus_dir = corpus_dir;
  if (!shared_dir.empty()) config.shared_dir = shared_dir;
  if (!input_mode.empty()) config.input_mode = input_mode;
  if (!preset.empty()) config.default_preset = preset;
  if (!db.empty()) config.db_path = db;
  if (!key.empty()) config.key_file = key;
  if (!scratch.empty()) config.scratch_dir = scratch;
  if (timed_calls >= 0) config.timed_calls = timed_calls;
  if (queue_depth >= 0) config.queue_depth = queue_depth;
  if (workers >= 0) config.grade_workers = workers;
  if (!agent_tokens.empty()) config.agent_tokens_file = agent_tokens;
  if (!admin_tokens.empty()) config.admin_tokens_file = admin_tokens;
  if (!tls_cert.empty()) config.tls_cert_file = tls_cert;
  if (!tls_key.empty()) config.tls_key_file = tls_key;
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (auto st = config.finalize(exe.parent_path().string()); !st) return die(st.error().message);
  return -1;
}

// The state and scratch dirs, this process's claimed run dir (stale ones swept), and the
// runner copied into it. An error says what to fix.
Result<ScratchClaim> prepare_dirs(JudgeConfig& config) {
  std::error_code ec;
  umask(077);
  fs::create_directories(config.state_dir, ec);
  if (ec) return Error{"cannot create state dir " + config.state_dir + ": " + ec.message()};
  fs::permissions(config.state_dir, fs::perms::owner_all, ec);
  fs::create_directories(config.scratch_dir, ec);
  if (ec) return Error{"cannot create scratch dir " + config.scratch_dir + ": " + ec.message()};
  // Traversable but not listable by the sandbox's unprivileged uid.
  fs::permissions(config.scratch_dir,
                  fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec, ec);
  // This process works only in its own locked run dir; dirs of judges that died (kill -9,
  // OOM, power cut) without cleaning up are swept now, live judges' dirs are left alone.
  auto run_dir = ScratchClaim::claim(config.scratch_dir);
  if (!run_dir) return run_dir.error();
  for (const auto& stale : run_dir->removed()) {
    spdlog::warn("removed stale scratch dir {} left by a judge that is no longer running", stale);
  }
  config.scratch_dir = run_dir->dir();
  if (!fs::exists(config.runner_path)) return Error{"runner not found at " + config.runner_path};
  // The sandbox mounts the runner from the scratch dir, so the checkout's own directory
  // permissions (a private home, a 0700 CI folder) never matter to the sandbox user.
  {
    fs::path bin = fs::path(config.scratch_dir) / "bin";
    fs::create_directories(bin, ec);
    fs::copy_file(config.runner_path, bin / "hpcab-runner", fs::copy_options::overwrite_existing,
                  ec);
    if (ec) return Error{"cannot copy the runner into " + bin.string() + ": " + ec.message()};
    fs::permissions(bin, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec, ec);
    fs::permissions(bin / "hpcab-runner",
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                        fs::perms::others_read | fs::perms::others_exec,
                    ec);
    config.runner_path = (bin / "hpcab-runner").string();
    // The Python runner is optional on a judge host: without it Python submissions and the
    // numpy / numba baselines fail as the judge's fault (Resource::kRunner), C grades go on.
    if (fs::exists(config.pyrunner_path)) {
      fs::copy_file(config.pyrunner_path, bin / "hpcab-pyrunner",
                    fs::copy_options::overwrite_existing, ec);
      if (ec)
        return Error{"cannot copy the Python runner into " + bin.string() + ": " + ec.message()};
      fs::permissions(bin / "hpcab-pyrunner",
                      fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec,
                      ec);
      config.pyrunner_path = (bin / "hpcab-pyrunner").string();
    } else {
      spdlog::warn("no Python runner at {}: Python submissions and baselines are unavailable",
                   config.pyrunner_path);
    }
  }
  for (const auto& p : {config.scratch_dir, config.runner_path}) {
    std::string blocked = untraversable(p);
    if (!blocked.empty()) {
      return Error{"the sandbox user cannot reach " + p + ": " + blocked +
                   " is not searchable by others (chmod o+x it, or choose another directory)"};
    }
  }

  return std::move(*run_dir);
}

// Every grade depends on the sandbox: prove it works now rather than failing every build.
Status check_sandbox(const JudgeConfig& config) {
  SandboxSpec probe;
  probe.argv = {"/bin/true"};
  probe.env = {"PATH=/usr/bin:/bin"};
  probe.limits.wall_s = 30;
  auto r = run_sandboxed(config.sandbox_policy(), probe);
  if (!r || !r->success()) {
    return Error{"the sandbox does not work (" + config.bwrap +
                 "): " + (r ? r->describe() + ": " + r->output : r.error().message) +
                 " -- bubblewrap must be installed and user namespaces enabled"};
  }
  return Ok{};
}

void announce(const JudgeConfig& config, const Access& access, uint16_t bound, bool tls,
              std::size_t kernels) {
  const char* scheme = tls ? "https" : "http";
  spdlog::info("hpcab-judge {} rank {} listening on {}://{}:{} ({} kernels, state {}, db {})",
               HPCAB_VERSION, config.rank, scheme, config.host, bound, kernels, config.state_dir,
               config.db_path);
  // Counts only: tokens never reach the log.
  spdlog::info("access: {}; admin routes {}",
               access.enabled() ? "bearer tokens required (all routes but /health)"
                                : "open (no token files)",
               access.admin_enabled() ? "enabled" : "disabled (no admin_tokens_file)");
  spdlog::info("results page (GET /, /results): {}",
               !config.results_page     ? "off (results_page: false)"
               : !access.enabled()      ? "open (no token files)"
               : access.admin_enabled() ? "admin token only"
                                        : "disabled (no admin_tokens_file)");
  {
    std::string gpus;
    for (const auto& g : config.gpus) gpus += (gpus.empty() ? "" : ", ") + g.vendor + " " + g.node;
    auto joined = [](const std::vector<std::string>& v) {
      std::string out;
      for (const auto& x : v) out += (out.empty() ? "" : ",") + x;
      return out;
    };
    spdlog::info("GPUs: {} (cuda: {} for {}; hip: {} for {})",
                 gpus.empty() ? "none: cuda and hip grades are rejected after their build" : gpus,
                 config.cuda_compiler, joined(config.cuda_archs), config.hip_compiler,
                 joined(config.hip_archs));
  }
  if (!access.enabled() && config.host != "127.0.0.1" && config.host != "::1" &&
      config.host != "localhost") {
    spdlog::warn(
        "listening on {} without tokens: anyone who can reach it can grade and read "
        "tasks; set agent_tokens_file (docs/operations.md)",
        config.host);
  }
  std::cout << "listening on " << scheme << "://" << config.host << ":" << bound << std::endl;
}

// The self-check's grades, on graders of its own (docs/grading.md "Self-check"): the judge's
// settings with each case credited against its own build, recorded in <state>/selfcheck.db so
// they never mix with the answers of agents. `direct` times each side alone (/score unpaired).
SelfcheckReport check_self(const JudgeConfig& config, const std::vector<Manifest>& corpus,
                           const std::string& key, Builder* builder,
                           const BandwidthTable& bandwidth) {
  const bool python = fs::exists(config.pyrunner_path);
  const auto cases = selfcheck_cases(corpus, config.slots.front().size(), python);
  auto db = Store::open((fs::path(config.state_dir) / "selfcheck.db").string());
  if (!db) {
    SelfcheckReport failed;
    failed.results.push_back({"database", "", SelfcheckOutcome::kFailed, std::nullopt, std::nullopt,
                              0, db.error().message});
    return failed;
  }
  const JudgeConfig paired_config = selfcheck_config(config, cases, false);
  const JudgeConfig direct_config = selfcheck_config(config, cases, true);
  Grader paired(paired_config, corpus, db->get(), key, builder, bandwidth);
  Grader direct(direct_config, corpus, db->get(), key, builder, bandwidth);
  SelfcheckGraders g{[&](const GradeRequest& r) { return paired.grade(r); },
                     [&](const GradeRequest& r) { return direct.grade(r); }};
  spdlog::info("self-check: {} case(s){}", cases.size(),
               python ? "" : " (no Python runner: the Python case is left out)");
  auto report = run_selfcheck(cases, g, config.selfcheck_tolerance,
                              config.selfcheck_parallel_tolerance, [](const SelfcheckResult& r) {
                                spdlog::info("self-check {} ({}): {}: {}", r.name, r.kernel,
                                             selfcheck_outcome_name(r.outcome), r.detail);
                              });
  (*db)->close();
  if (config.slots.front().size() < 2) {
    report.results.push_back({"parallel", "gemm", SelfcheckOutcome::kSkipped, std::nullopt,
                              std::nullopt, config.selfcheck_parallel_tolerance,
                              "a slot of one CPU: no parallel candidate to time"});
  }
  if (!python) {
    report.results.push_back({"python", "softmax", SelfcheckOutcome::kSkipped, std::nullopt,
                              std::nullopt, config.selfcheck_tolerance,
                              "no Python runner on this judge"});
  }
  spdlog::log(report.fit() ? spdlog::level::info : spdlog::level::err, "self-check: {}",
              report.fit() ? "fit to grade on this host"
                           : "NOT fit to grade on this host: see the checks above");
  return report;
}

// The self-check at start: one job in the grading queue (grades wait behind it, never beside
// it), its state in /health.
void start_selfcheck(const JudgeConfig& config, const std::vector<Manifest>& corpus,
                     const std::string& key, Builder* builder, const BandwidthTable& bandwidth,
                     JobQueue& queue, SelfcheckState& state) {
  state.set({{"state", "pending"}});
  const bool queued = queue.try_push([&config, &corpus, &key, builder, &bandwidth, &state] {
    state.set({{"state", "running"}});
    try {
      SelfcheckReport r = check_self(config, corpus, key, builder, bandwidth);
      state.set({{"state", r.fit() ? "fit" : "unfit"}, {"report", r.to_json()}});
    } catch (const std::exception& e) {
      state.set({{"state", "error"}, {"detail", e.what()}});
    }
  });
  if (!queued) state.set({{"state", "error"}, {"detail", "the grading queue was full"}});
}

// Built for the GPUs this judge has, when their drivers say what they are (docs/operations.md,
// "GPU languages"); the configured lists stand otherwise.
void archs_from_devices(JudgeConfig& config) {
  if (!config.gpu_archs_from_device || config.gpus.empty()) return;
  const GpuArchs archs = device_gpu_archs(
      config.gpus, {config.cuda_archs, config.hip_archs}, "/sys/class/kfd/kfd/topology/nodes",
      []() -> Result<std::string> {
        ProcessOptions o;
        o.argv = {"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"};
        o.timeout_s = 30;
        auto r = run_process(o);
        if (!r) return r.error();
        if (!r->success()) return Error{"nvidia-smi: " + r->describe()};
        return r->output;
      },
      [](const std::string& line) { spdlog::info("{}", line); });
  config.cuda_archs = archs.cuda;
  config.hip_archs = archs.hip;
}

// The builder's settings, its cache directory created.
Result<BuildSettings> build_settings(const JudgeConfig& config) {
  BuildSettings bs;
  bs.cache_dir = (fs::path(config.state_dir) / "builds").string();
  bs.scratch_dir = config.scratch_dir;
  bs.timeout_s = config.build_timeout_s;
  bs.log_cap = config.build_log_cap;
  bs.autopar_threads = static_cast<int>(config.slots.front().size());
  bs.python = config.python;
  bs.cuda_compiler = config.cuda_compiler;
  bs.hip_compiler = config.hip_compiler;
  bs.cuda_archs = config.cuda_archs;
  bs.hip_archs = config.hip_archs;
  std::error_code ec;
  fs::create_directories(bs.cache_dir, ec);
  if (ec) return Error{"cannot create the build cache " + bs.cache_dir + ": " + ec.message()};
  return bs;
}

// The bandwidth floor (SPEC §5.9): the configured figure, else measured once per machine and
// cached in the state dir.
Result<BandwidthTable> bandwidth_table(const JudgeConfig& config, Builder& builder) {
  if (config.memory_bandwidth_gbs > 0) {
    return BandwidthTable::flat(config.memory_bandwidth_gbs * 1e9);
  }
  return load_or_measure_bandwidth(config.bandwidth_file, machine_fingerprint(&builder, config),
                                   [](const std::string& line) { spdlog::info("{}", line); });
}

// Blocks the shutdown signals in every thread (main waits for them with sigwait); ignores
// SIGPIPE.
sigset_t block_shutdown_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  return signals;
}

// Stops serving, lets in-flight grades finish within the shutdown grace and closes the store.
// Past the grace the judge leaves anyway (sandboxes die with it, --die-with-parent) rather than
// hang on a runaway grade.
void stop_serving(const JudgeConfig& config, Server& server, JobQueue& queue, Store& store) {
  server.stop();
  auto drained = std::async(std::launch::async, [&queue] { queue.shutdown(); });
  if (drained.wait_for(std::chrono::duration<double>(config.server.shutdown_grace_s)) !=
      std::future_status::ready) {
    spdlog::warn("grades still running after {} s; closing the database and exiting",
                 config.server.shutdown_grace_s);
    store.close();
    std::_Exit(3);
  }
  store.close();
}

}  // namespace

int main(int argc, char** argv) {
  JudgeConfig config;
  bool selfcheck = false;
  if (int rc = configure(argc, argv, config, selfcheck); rc >= 0) return rc;
  // Access control is checked before anything is created: a misconfigured secret is a startup
  // error, never a judge that runs open.
  auto access = Access::load(config.agent_tokens_file, config.admin_tokens_file);
  if (!access) return die(access.error().message);
  const bool tls = !config.tls_cert_file.empty();
  if (tls) {
    if (auto st = check_private_file(config.tls_key_file, "TLS private key"); !st) {
      return die("tls_key_file: " + st.error().message);
    }
  }

  sigset_t signals = block_shutdown_signals();

  auto run_dir = prepare_dirs(config);
  if (!run_dir) return die(run_dir.error().message);
  if (auto st = check_sandbox(config); !st) return die(st.error().message);
  auto key_bytes = load_or_create_key(config.key_file);
  if (!key_bytes) return die(key_bytes.error().message);
  auto store = Store::open(config.db_path);
  if (!store) return die(store.error().message);
  auto corpus = load_corpus(config.corpus_dir);
  if (!corpus) return die(corpus.error().message);

  archs_from_devices(config);
  auto bs = build_settings(config);
  if (!bs) return die(bs.error().message);
  Builder builder(*bs, config.sandbox_policy());
  auto measured = bandwidth_table(config, builder);
  if (!measured) return die(measured.error().message);
  BandwidthTable bandwidth = std::move(*measured);
  if (selfcheck) {
    SelfcheckReport report = check_self(config, *corpus, *key_bytes, &builder, bandwidth);
    std::cout << report.to_json().dump(2) << std::endl;
    (*store)->close();
    run_dir->remove();
    return report.fit() ? 0 : 1;
  }
  // The start-up self-check grades on graders of its own: it keeps its copy of the corpus.
  const std::vector<Manifest> selfcheck_corpus =
      config.selfcheck_at_start ? *corpus : std::vector<Manifest>{};
  const BandwidthTable selfcheck_bandwidth = bandwidth;
  Grader grader(config, std::move(*corpus), store->get(), *key_bytes, &builder,
                std::move(bandwidth));
  JobQueue queue(static_cast<std::size_t>(config.queue_depth), config.grade_workers);
  Metrics metrics;
  Routes routes(config, &grader, &queue, &metrics, store->get(), &*access);
  JobQueue checks(static_cast<std::size_t>(config.syntax_check_queue_depth),
                  config.syntax_check_workers);
  routes.set_check_queue(&checks);
  SelfcheckState selfcheck_state;
  routes.set_selfcheck(&selfcheck_state);
  Server server(config.server, [&routes](HttpRequest req, Responder respond) {
    routes.handle(std::move(req), std::move(respond));
  });
  if (tls) {
    if (auto st = server.enable_tls(config.tls_cert_file, config.tls_key_file); !st) {
      return die(st.error().message);
    }
  }
  auto bound = server.listen(config.host, config.port);
  if (!bound) return die(bound.error().message);
  server.start();
  announce(config, *access, *bound, tls, grader.corpus().size());
  if (config.selfcheck_at_start) {
    start_selfcheck(config, selfcheck_corpus, *key_bytes, &builder, selfcheck_bandwidth, queue,
                    selfcheck_state);
  }

  int sig = 0;
  sigwait(&signals, &sig);
  spdlog::info("signal {}: stopping (in-flight grades finish first)", sig);
  stop_serving(config, server, queue, **store);
  run_dir->remove();  // only this judge's run dir: others may share the scratch root
  spdlog::info("stopped");
  return 0;
}
