#include "harness/daemon.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "common/hmac.h"
#include "common/manifest.h"
#include "common/url.h"
#include "harness/agent_process.h"
#include "harness/agents.h"
#include "harness/daemon_real_effects.h"
#include "harness/judge_client.h"
#include "harness/outage.h"
#include "harness/plan.h"
#include "harness/proxy.h"
#include "harness/schema.h"
#include "harness/tool_policy.h"

namespace hpcab::harness {

namespace fs = std::filesystem;

namespace {

// Reasons recorded in episodes.exit_reason (docs/harness.md, "Exit reasons").
constexpr const char* kSubmitted = "submitted";
constexpr const char* kNoSubmission = "no_submission";
constexpr const char* kWallBudget = "wall_budget";
constexpr const char* kTokenBudget = "token_budget";
constexpr const char* kContextOverflow = "context_overflow";
constexpr const char* kCrash = "crash";
constexpr const char* kTaskUnavailable = "task_unavailable";
constexpr const char* kHarnessError = "harness_error";
constexpr int kHarnessErrorCode = -1;
// Infrastructure failures (status infra_failed): the judge or the model server stayed
// unreachable past OUTAGE_WAIT_S, or the judge's machinery failed a grade.
constexpr const char* kJudgeUnreachable = "judge_unreachable";
constexpr const char* kInferenceUnreachable = "inference_unreachable";
constexpr const char* kJudgeFault = "judge_fault";
// StopSignal code of "the proxy gave up on the model server" (not an exit code).
constexpr int kOutageStop = 1000;

// One daemon per (database, arm): the lock is held for the daemon's life and released by the
// kernel when it dies, however it dies.
class ArmLock {
 public:
  static Result<ArmLock> acquire(const fs::path& db, const std::string& arm) {
    fs::path path = db;
    path += "." + arm + ".lock";
    std::error_code ec;
    if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      return Error{"cannot open the lock file " + path.string() + ": " + std::strerror(errno)};
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      char buf[64] = {};
      [[maybe_unused]] ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
      ::close(fd);
      std::string holder(buf);
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      return Error{"arm '" + arm + "' is already being run by another hpcab-harness" +
                   (holder.empty() ? std::string() : " (pid " + holder + ")") + " on " +
                   db.string() + " (lock " + path.string() + ")"};
    }
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) == 0) {
      [[maybe_unused]] ssize_t n = ::pwrite(fd, pid.data(), pid.size(), 0);
    }
    return ArmLock(fd);
  }
  ArmLock(ArmLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  ArmLock& operator=(ArmLock&&) = delete;
  ~ArmLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  explicit ArmLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Serialises a worker's use of its database connection between the worker thread and its
// proxy's connection threads (the sink). One connection per worker keeps SQLite transactions
// from interleaving.
struct SharedDb {
  std::mutex mu;
  std::unique_ptr<EpisodeDb> db;
};

// Writes each proxied request as a row of the episode it belongs to. The proxy's episode key is
// the attempt's run id, "<episode id>#<attempt>", so a rerun gets a fresh budget.
class DbSink : public UsageSink {
 public:
  DbSink(SharedDb& db, TokenWeights weights, std::ostream* log, std::mutex* log_mu)
      : db_(db), weights_(weights), log_(log), log_mu_(log_mu) {}
  void record(const RequestRecord& r) override {
    if (r.episode.empty()) return;  // between episodes: nothing to charge it to
    const std::string episode = schema::episode_of_run_id(r.episode);
    RequestUsage u;
    u.at = static_cast<double>(r.started_unix_ms) / 1000.0;
    u.model = r.model;
    u.route = r.endpoint;
    u.input = r.usage.input;
    u.cached = r.usage.cached;
    u.output = r.usage.output;
    u.latency_ms = r.latency_s * 1000.0;
    u.status = r.status;
    u.tokens_source = token_source_name(r.source);
    std::lock_guard lock(db_.mu);
    if (auto st = db_.db->add_request(episode, u, weights_); !st && log_) {
      std::lock_guard l(*log_mu_);
      *log_ << "hpcab-harness: cannot record a model request of " << episode << ": "
            << st.error().message << "\n";
    }
  }
  void record_search(const SearchRecord& r) override {
    if (r.episode.empty()) return;
    const std::string episode = schema::episode_of_run_id(r.episode);
    SearchUsage u;
    u.at = static_cast<double>(r.started_unix_ms) / 1000.0;
    u.query = r.query;
    u.status = r.status;
    u.error_code = r.error_code;
    u.results_json = r.results_json;
    u.kept = r.kept;
    u.dropped = r.dropped;
    u.latency_ms = r.latency_s * 1000.0;
    std::lock_guard lock(db_.mu);
    if (auto st = db_.db->add_search(episode, u); !st && log_) {
      std::lock_guard l(*log_mu_);
      *log_ << "hpcab-harness: cannot record a search of " << episode << ": " << st.error().message
            << "\n";
    }
  }

 private:
  SharedDb& db_;
  TokenWeights weights_;
  std::ostream* log_;
  std::mutex* log_mu_;
};

std::string env_or(const char* name, const std::string& fallback = "") {
  const char* v = std::getenv(name);
  return v ? std::string(v) : fallback;
}

// The attempt's final submission, from what the agent's tools recorded in HPCAB_TOOL_STATE:
// the last line of submissions.jsonl (every submit, any policy), else the single-policy marker.
void read_final_submission(const fs::path& state_dir, const std::string& run_id, ExitInfo* exit) {
  auto take = [&](const std::string& line) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) return false;
    if (j.contains("submission_id") && j["submission_id"].is_number_integer()) {
      exit->final_submission_id = j["submission_id"].get<int64_t>();
    }
    if (j.contains("verdict") && j["verdict"].is_string()) {
      exit->final_verdict = j["verdict"].get<std::string>();
    }
    return exit->final_submission_id.has_value() || !exit->final_verdict.empty();
  };
  std::ifstream log(state_dir / "submissions.jsonl");
  std::string line, last;
  while (std::getline(log, line)) {
    if (!line.empty()) last = line;
  }
  if (!last.empty() && take(last)) return;
  std::string name = ".hpcab-submitted";
  std::string safe;
  for (unsigned char c : run_id)
    safe += std::isalnum(c) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (!run_id.empty()) name += "." + safe;
  std::ifstream marker(state_dir / name);
  if (std::getline(marker, line)) take(line);
}

// The last `bytes` of an agent's log, indented, for the daemon's own log when an agent crashes.
std::string log_tail(const fs::path& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "  (no log)";
  const std::streamoff size = in.tellg();
  const std::streamoff from = size > static_cast<std::streamoff>(bytes) ? size - bytes : 0;
  in.seekg(from);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::string out = "  | ";
  for (char c : text) out += c == '\n' ? std::string("\n  | ") : std::string(1, c);
  return out;
}

// What the proxy's callbacks tell the worker: the attempt (by its run id) must stop with an
// exit code (125 tokens, 126 context). A callback about another attempt (a straggler request
// of one already over) is ignored.
class StopSignal {
 public:
  void arm(const std::string& key) {
    std::lock_guard lock(mu_);
    key_ = key;
    code_ = 0;
  }
  void raise(const std::string& key, int code) {
    std::lock_guard lock(mu_);
    if (key == key_ && code_ == 0) code_ = code;
  }
  int load() const {
    std::lock_guard lock(mu_);
    return code_;
  }
  bool operator==(int code) const { return load() == code; }

 private:
  mutable std::mutex mu_;
  std::string key_;
  int code_ = 0;
};

struct Attempt {
  ExitInfo exit;
  bool failed = false;       // a harness-side failure or a crash past its relaunches
  bool limit = false;        // 124 or 125: eligible for the one rerun
  bool interrupted = false;  // the daemon is stopping; leave the episode for the next one
  bool infra = false;        // ended by the infrastructure: infra_failed, handed out again
  bool retire = false;       // infra: the worker's judge or model server stayed down
  bool reached_judge = false;
  int relaunches = 0;
  double seconds = 0;
};

// Why the infrastructure, not the agent, ended an attempt.
struct InfraCause {
  const char* reason;  // kJudgeUnreachable, kInferenceUnreachable, kJudgeFault
  bool retire;         // the worker's URL stayed down for the whole outage wait
  std::string why;     // for the log
};

// The JSON lines of a file of the tools' state folder.
std::vector<nlohmann::json> json_lines(const fs::path& file) {
  std::vector<nlohmann::json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object()) out.push_back(std::move(j));
  }
  return out;
}

std::string without_slash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// What one attempt runs: its ids, budget, files and the agent's command.
struct AttemptPlan {
  std::string run_id;  // "<episode id>#<attempt>"
  Budget budget;
  double deadline = 0;  // DaemonClock::now_s() when the attempt started, plus the wall budget
  fs::path workspace, state_dir, log_path;
  AgentSpawn spawn;
};

// The agent's wall clock over its launches: the deadline, moved by the outages waited out.
struct AgentClock {
  double started_unix = 0;  // the first launch
  double deadline = 0;
  double granted = 0;  // seconds the deadline moved for outages
};

// Whether the tools recorded a graded submission: a grade ends any question of blame.
bool graded(const fs::path& state_dir, const std::string& run_id) {
  ExitInfo e;
  read_final_submission(state_dir, run_id, &e);
  return e.final_submission_id.has_value() || !e.final_verdict.empty();
}

// The arm's row of the `arms` table.
ArmRecord arm_record(const Arm& arm) {
  ArmRecord rec{arm.name, arm.agent, arm.model, arm.language, arm_setup_json(arm), "", "", ""};
  if (!arm.file.empty()) {  // an arm parsed from text (parse_arm) has no file
    rec.arm_file = fs::absolute(arm.file).string();
    std::ifstream in(arm.file);
    rec.arm_text.assign(std::istreambuf_iterator<char>(in), {});
  }
  if (!arm.prompt_template.empty()) {
    std::ifstream pt(arm.prompt_template);
    rec.prompt_text.assign(std::istreambuf_iterator<char>(pt), {});
  }
  return rec;
}

// The log line of an attempt's end; `what` says what became of the episode.
std::string attempt_line(int w, const Pin& pin, const EpisodeRow& row, const Attempt& a,
                         const std::optional<EpisodeRow>& after, const std::string& what) {
  std::ostringstream line;
  line << "[w" << w << " r" << pin.rank << "] " << row.id << " attempt " << row.attempt << ": "
       << a.exit.reason << " (exit " << a.exit.code << ")";
  if (a.exit.final_submission_id) line << ", submission " << *a.exit.final_submission_id;
  if (!a.exit.final_verdict.empty()) line << " verdict " << a.exit.final_verdict;
  if (a.relaunches) line << ", " << a.relaunches << " relaunch(es)";
  line << ", " << std::fixed << std::setprecision(1) << a.seconds << " s";
  if (after) line << ", " << after->weighted_tokens << " weighted tokens";
  line << "; " << what;
  return line.str();
}

class Daemon {
 public:
  Daemon(const Arm& arm, const DaemonOptions& opt, const DaemonEffects& fx)
      : arm_(arm), opt_(opt), fx_(fx) {}

  Result<RunSummary> run();

 private:
  // run()'s steps.
  Status check_options() const;
  // A GPU arm's judges: those whose /health reports a GPU, asked once before anything is
  // recorded (a GPU arm without a GPU judge fails here).
  Status route_gpu_judges();
  // Sweeps what a dead daemon of this slot left running, records the arm, resumes its
  // interrupted episodes and enqueues the plan.
  Result<std::unique_ptr<EpisodeDb>> open_episodes(int workers);
  void load_references();
  void start_health_watch(int workers);
  // Prints progress until every worker is done; cancels the /task waits when stopping.
  void wait_for_workers(EpisodeDb& db, double t0);
  void print_progress(EpisodeDb& db, double t0, bool final_line);

  // A worker's steps.
  void worker_main(int w);
  // The worker's metering proxy, started; null (fatal_ set) when it cannot start.
  std::unique_ptr<ModelEndpoint> open_endpoint(int w, const Pin& pin, StopSignal& stop_code,
                                               UsageSink* sink);
  // Claims and runs episodes until none is waiting, the daemon stops or the worker retires.
  void serve(int w, const Pin& pin, SharedDb& db, ModelEndpoint* proxy, StopSignal& stop_code);
  // Records how an attempt ended (rerun, infra_failed, failed or finished); true when the
  // worker retires.
  bool record_attempt(int w, const Pin& pin, SharedDb& db, const EpisodeRow& row, const Attempt& a);

  // An attempt's steps.
  Attempt run_attempt(int w, ModelEndpoint* proxy, StopSignal& stop_code, const Pin& pin,
                      const EpisodeRow& row);
  // Workspace, task, prompt and the agent's command line; false when the attempt ends here
  // (`a` says how).
  bool prepare_attempt(int w, ModelEndpoint* proxy, const Pin& pin, const EpisodeRow& row,
                       AttemptPlan* plan, Attempt* a);
  // The task from the pinned judge with the worker's rank; nullopt when the attempt ends here.
  std::optional<nlohmann::json> fetch_task(int w, const Pin& pin, const EpisodeRow& row,
                                           const std::string& run_id, Attempt* a);
  // Writes the workspace (prompt, skills); the prompt's text.
  Result<std::string> write_workspace(const AttemptPlan& plan, const nlohmann::json& task);
  AgentContext agent_context(const Pin& pin, const EpisodeRow& row, const AttemptPlan& plan,
                             const std::string& prompt, ModelEndpoint* proxy) const;
  // Launches the agent, relaunching a crash while time and budget remain; false when it could
  // not be started (a harness failure).
  bool supervise(int w, ModelEndpoint* proxy, StopSignal& stop_code, const Pin& pin,
                 const AttemptPlan& plan, Attempt* a);
  // Waits for one launch, moving the deadline by the outage time lost; then stops its group
  // and sweeps what left it.
  AgentWait wait_agent(int w, AgentRun& run, ModelEndpoint* proxy, const Pin& pin,
                       const std::string& run_id, const std::function<bool()>& stop,
                       AgentClock* clock);
  // 124/125/126 by what stopped the agent, an infrastructure failure, a submission or a crash:
  // true when the attempt ends (`a` says how), false to relaunch.
  bool launch_ended(int w, ModelEndpoint* proxy, const StopSignal& stop_code, const Pin& pin,
                    const AttemptPlan& plan, const AgentWait& wt, const AgentClock& clock,
                    Attempt* a);
  // The proxy gave up on the model server: the graded submission stands, else infra_failed.
  void end_for_model_outage(int w, const Pin& pin, const AttemptPlan& plan, Attempt* a);
  void end_as_infra(int w, const std::string& run_id, const InfraCause& c, int code, Attempt* a);
  // A harness-side failure of the attempt; returns false (for prepare_attempt's callers).
  bool fail_attempt(int w, const std::string& run_id, const char* reason, const std::string& why,
                    Attempt* a);

  // After the agent ended without a graded submission: whether the infrastructure is why (the
  // proxy gave up on the model server, the agent's tools gave up on the judge and the monitor
  // saw that judge down, a grade was a judge fault, the model server is down right now).
  std::optional<InfraCause> infra_cause(const Pin& pin, ModelEndpoint* proxy, int stop_code,
                                        const std::string& run_id, const fs::path& state_dir,
                                        double since) const;
  // Seconds the attempt lost to outages of its judge (as the monitor saw it) and model server
  // (as its proxy saw it) since `since`, at most OUTAGE_WAIT_S: what its deadline moves by.
  double outage_grant(const Pin& pin, ModelEndpoint* proxy, double since) const;
  // The progress line's "| down: ..." part, and log lines when a URL goes down or comes back.
  std::string outage_status();
  bool stopping() const { return opt_.stop && opt_.stop->load(); }
  DaemonClock& clock() const { return *fx_.clock; }
  void set_fatal(const std::string& why) {
    std::lock_guard lock(summary_mu_);
    fatal_ = why;
  }
  void log_line(const std::string& s) {
    if (!opt_.log) return;
    std::lock_guard lock(log_mu_);
    if (opt_.progress_tty && opt_.progress == opt_.log) *opt_.log << "\r\33[K";
    *opt_.log << s << "\n" << std::flush;
  }
  // The variables the agent's tools read (also written into MCP server entries).
  std::map<std::string, std::string> tool_env(const Pin& pin, const AgentContext& ctx,
                                              const std::string& usage_url,
                                              const fs::path& state_dir) const;
  std::vector<std::string> agent_env(const Pin& pin, const AgentContext& ctx) const;

  const Arm& arm_;
  const DaemonOptions& opt_;
  const DaemonEffects fx_;
  std::string arm_marker_;  // HPCAB_ARM_RUN value: which daemon slot an agent belongs to
  std::map<std::string, fs::path> reference_c_;
  std::mutex log_mu_;
  std::mutex summary_mu_;
  RunSummary summary_;
  std::atomic<int> workers_left_{0};
  std::atomic<int> busy_{0};  // workers running an attempt (until it is recorded)
  std::string fatal_;         // guarded by summary_mu_
  // The judge_urls indices workers are pinned to: every judge, or for a GPU arm those whose
  // /health reports a GPU (found once in run(), before any worker starts).
  std::vector<int> judge_route_;
  OutagePolicy outage_;                        // from the arm (OUTAGE_WAIT_S, ...)
  std::unique_ptr<JudgeHealthWatch> monitor_;  // the workers' judges
  CancelToken stop_token_;                     // cancelled when stopping: ends /task waits
  std::mutex proxies_mu_;
  std::map<int, ModelEndpoint*> proxies_;  // by worker, while it runs
  // URL -> role, since: what the log said is down; guarded by proxies_mu_.
  std::map<std::string, std::pair<std::string, double>> reported_down_;
};

std::map<std::string, std::string> Daemon::tool_env(const Pin& pin, const AgentContext& ctx,
                                                    const std::string& usage_url,
                                                    const fs::path& state_dir) const {
  std::map<std::string, std::string> env;
  for (const char* k : {"JUDGE_TOKEN", "JUDGE_TOKEN_FILE", "JUDGE_CA_FILE"}) {
    if (const char* v = std::getenv(k)) env[k] = v;
  }
  env["JUDGE_URL"] = pin.judge_url;
  env["JUDGE_RANK"] = std::to_string(pin.rank);
  env["RUN_ID"] = ctx.run_id;
  env["KERNEL"] = ctx.kernel;
  env["LANGUAGE"] = ctx.language;
  env["HPCAB_RESIDENCY"] = arm_.residency;
  env["AGENT"] = arm_.agent;
  env["HPCAB_SUBMISSION_POLICY"] = arm_.submission_policy;
  {
    std::string tools;
    for (const auto& t : arm_.tool_names()) tools += (tools.empty() ? "" : ",") + t;
    env[kToolsEnv] = tools;
  }
  env["HPCAB_TOOL_STATE"] = state_dir.string();
  if (!usage_url.empty()) env["HPCAB_USAGE_URL"] = usage_url;
  std::ostringstream wait, backoff;
  wait << outage_.wait_s;
  backoff << outage_.backoff_max_s;
  env["HPCAB_OUTAGE_WAIT_S"] = wait.str();
  env["HPCAB_OUTAGE_BACKOFF_MAX_S"] = backoff.str();
  return env;
}

std::vector<std::string> Daemon::agent_env(const Pin& pin, const AgentContext& ctx) const {
  std::map<std::string, std::string> env = ctx.tool_env;
  // Only what an agent needs from the daemon's environment; the rest (the daemon's upstream
  // API key above all) stays out of the agent's reach.
  for (const char* k :
       {"HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TERM", "TMPDIR", "SHELL", "TZ"}) {
    if (const char* v = std::getenv(k)) env[k] = v;
  }
  std::string path = env_or("PATH", "/usr/local/bin:/usr/bin:/bin");
  env["PATH"] = fs::path(opt_.tool_path).parent_path().string() + ":" + path;
  if (!arm_.model.empty()) env["MODEL"] = arm_.model;
  if (!ctx.model_url.empty()) env["MODEL_URL"] = ctx.model_url;
  env["HPCAB_TOOL"] = opt_.tool_path;
  env["HPCAB_WORKER"] = std::to_string(pin.worker);
  for (auto& [k, v] : agent_environment(ctx)) env[k] = v;
  // Markers for the sweeps: the attempt's processes, and every agent of this daemon slot.
  env["HPCAB_EPISODE"] = ctx.run_id;
  env["HPCAB_ARM_RUN"] = arm_marker_;
  std::vector<std::string> out;
  for (auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

bool Daemon::fail_attempt(int w, const std::string& run_id, const char* reason,
                          const std::string& why, Attempt* a) {
  a->failed = true;
  a->exit.reason = reason;
  a->exit.code = kHarnessErrorCode;
  log_line("[w" + std::to_string(w) + "] " + run_id + ": " + why);
  return false;
}

Attempt Daemon::run_attempt(int w, ModelEndpoint* proxy, StopSignal& stop_code, const Pin& pin,
                            const EpisodeRow& row) {
  Attempt a;
  const double started = clock().now_s();
  AttemptPlan plan;
  plan.budget = episode_budget(arm_, row.budget_factor);
  plan.deadline = started + static_cast<double>(plan.budget.wall_s);
  plan.run_id = row.id + "#" + std::to_string(row.attempt);
  if (!prepare_attempt(w, proxy, pin, row, &plan, &a)) return a;
  if (!supervise(w, proxy, stop_code, pin, plan, &a)) return a;
  if (proxy) proxy->set_episode("", 0);
  if (!a.infra) read_final_submission(plan.state_dir, plan.run_id, &a.exit);
  if (a.exit.reason == kNoSubmission && a.exit.final_submission_id) a.exit.reason = kSubmitted;
  a.seconds = clock().now_s() - started;
  return a;
}

bool Daemon::prepare_attempt(int w, ModelEndpoint* proxy, const Pin& pin, const EpisodeRow& row,
                             AttemptPlan* plan, Attempt* a) {
  const fs::path base =
      fs::absolute(opt_.workspace_root) / arm_.name / row.kernel / std::to_string(row.repetition);
  const std::string attempt = "attempt-" + std::to_string(row.attempt);
  plan->workspace = base / attempt;
  plan->state_dir = base / (attempt + ".tool");
  plan->log_path = base / (attempt + ".log");
  std::error_code ec;
  // The attempt number is new for this database, but a database that was deleted (or a
  // workspace root shared by mistake) may have left one behind: start from nothing.
  fs::remove_all(plan->workspace, ec);
  fs::remove_all(plan->state_dir, ec);
  fs::create_directories(plan->state_dir, ec);
  if (ec) {
    return fail_attempt(w, plan->run_id, kHarnessError,
                        "cannot create " + plan->state_dir.string() + ": " + ec.message(), a);
  }
  auto task = fetch_task(w, pin, row, plan->run_id, a);
  if (!task) return false;
  auto prompt = write_workspace(*plan, *task);
  if (!prompt) return fail_attempt(w, plan->run_id, kHarnessError, prompt.error().message, a);
  AgentContext ctx = agent_context(pin, row, *plan, *prompt, proxy);
  auto command = agent_command_line(ctx);
  if (!command) {
    return fail_attempt(w, plan->run_id, kHarnessError, "agent command: " + command.error().message,
                        a);
  }
  if (auto st = write_agent_files(ctx); !st) {
    return fail_attempt(w, plan->run_id, kHarnessError, "agent files: " + st.error().message, a);
  }
  plan->spawn =
      AgentSpawn{*command, plan->workspace.string(), agent_env(pin, ctx), plan->log_path.string()};
  return true;
}

std::optional<nlohmann::json> Daemon::fetch_task(int w, const Pin& pin, const EpisodeRow& row,
                                                 const std::string& run_id, Attempt* a) {
  auto settings = JudgeSettings::from_env();
  TaskRequest request;
  JudgeSettings& js = request.settings;
  js = settings ? *settings : JudgeSettings{};
  js.url = pin.judge_url;
  js.rank = pin.rank;
  js.run_id = run_id;
  js.optimizer = arm_.agent;
  js.timeout_s = opt_.judge_timeout_s;
  js.single_submission = false;
  js.state_dir = "";  // the daemon's own waits are not the agent's tools' (outages.jsonl)
  js.outage = outage_;
  request.kernel = row.kernel;
  request.language = arm_.language;
  request.cancel = &stop_token_;
  request.observer = [this, w, id = row.id](const OutageEvent& e) {
    log_line("[w" + std::to_string(w) + "] " + id + ": " + outage_line("judge", e));
  };
  // An unreachable or overloaded judge is waited out (OUTAGE_WAIT_S); past that the episode is
  // an infrastructure failure and this worker, whose judge stayed down, takes no further one.
  TaskReply reply = fx_.judges->task(request);
  if (stopping()) {
    a->interrupted = true;
    return std::nullopt;
  }
  if (!reply.task && reply.failure == Failure::kTransport) {
    a->infra = a->retire = true;
    a->exit = {kJudgeUnreachable, kHarnessErrorCode, {}, ""};
    log_line("[w" + std::to_string(w) + "] " + run_id + ": no task: " + reply.task.error().message);
    return std::nullopt;
  }
  if (!reply.task) {
    fail_attempt(w, run_id, kTaskUnavailable, "no task: " + reply.task.error().message, a);
    return std::nullopt;
  }
  a->reached_judge = true;
  return std::move(*reply.task);
}

Result<std::string> Daemon::write_workspace(const AttemptPlan& plan, const nlohmann::json& task) {
  auto templ = prompt_template_text(arm_);
  if (!templ) return Error{"prompt: " + templ.error().message};
  std::vector<std::string> skill_files;
  if (!arm_.skills_dir.empty()) {
    auto listed = list_skills(arm_.skills_dir);
    if (!listed) return Error{listed.error().message};
    skill_files = std::move(*listed);
  }
  auto prompt = render_prompt(*templ, task, arm_.language, plan.budget, arm_.submission_policy,
                              arm_.tools, skill_files);
  if (!prompt) return Error{"prompt: " + prompt.error().message};
  if (auto st = prepare_workspace(plan.workspace, task, *prompt); !st) {
    return Error{"workspace: " + st.error().message};
  }
  if (!arm_.skills_dir.empty()) {
    if (auto copied = install_skills(arm_.skills_dir, plan.workspace); !copied) {
      return Error{copied.error().message};
    }
  }
  return *prompt;
}

AgentContext Daemon::agent_context(const Pin& pin, const EpisodeRow& row, const AttemptPlan& plan,
                                   const std::string& prompt, ModelEndpoint* proxy) const {
  AgentContext ctx;
  ctx.kind = arm_.agent;
  ctx.agent_command = arm_.agent_command;
  ctx.max_turns = arm_.agent_settings.max_turns;
  ctx.disallowed_tools = arm_.agent_settings.disallowed_tools;
  ctx.extra_args = arm_.agent_settings.extra_args;
  ctx.workspace = plan.workspace.string();
  ctx.prompt_file = (plan.workspace / "PROMPT.md").string();
  ctx.prompt = prompt;
  ctx.kernel = row.kernel;
  ctx.language = arm_.language;
  ctx.model = arm_.model;
  ctx.model_url = proxy ? "http://127.0.0.1:" + std::to_string(proxy->port()) : "";
  ctx.judge_url = pin.judge_url;
  ctx.rank = pin.rank;
  ctx.run_id = plan.run_id;
  ctx.worker = pin.worker;
  ctx.tool_path = opt_.tool_path;
  if (auto it = reference_c_.find(row.kernel); it != reference_c_.end()) {
    ctx.reference_c = it->second.string();
  }
  ctx.library_dir = fs::absolute(arm_.library_dir).string();
  const std::string usage_url = ctx.model_url.empty() ? "" : ctx.model_url + "/hpcab/usage";
  ctx.tool_env = tool_env(pin, ctx, usage_url, plan.state_dir);
  if (!ctx.model_url.empty() && arm_.gives_search()) {
    ctx.tool_env["HPCAB_SEARCH_URL"] = ctx.model_url + "/hpcab/search";
  }
  return ctx;
}

bool Daemon::supervise(int w, ModelEndpoint* proxy, StopSignal& stop_code, const Pin& pin,
                       const AttemptPlan& plan, Attempt* a) {
  stop_code.arm(plan.run_id);
  if (proxy) proxy->set_episode(plan.run_id, static_cast<double>(plan.budget.tokens));
  auto stop_requested = [&] { return stop_code.load() != 0 || stopping(); };
  AgentClock agent_clock{clock().unix_s(), plan.deadline, 0};
  for (;;) {
    auto run = fx_.agents->start(plan.spawn);
    if (!run) {
      return fail_attempt(w, plan.run_id, kHarnessError,
                          "cannot start the agent: " + run.error().message, a);
    }
    const AgentWait wt =
        wait_agent(w, **run, proxy, pin, plan.run_id, stop_requested, &agent_clock);
    if (launch_ended(w, proxy, stop_code, pin, plan, wt, agent_clock, a)) return true;
  }
}

AgentWait Daemon::wait_agent(int w, AgentRun& run, ModelEndpoint* proxy, const Pin& pin,
                             const std::string& run_id, const std::function<bool()>& stop,
                             AgentClock* ac) {
  AgentWait wt;
  for (;;) {
    wt = run.wait(ac->deadline, stop);
    if (wt.kind != AgentWait::Kind::kDeadline) break;
    // Time lost to an outage is given back (at most OUTAGE_WAIT_S in all): the agent's wall
    // budget is for its work, not for waiting on a judge or model server that was down.
    const double grant = outage_grant(pin, proxy, ac->started_unix);
    if (grant <= ac->granted + 0.5) break;
    ac->deadline += grant - ac->granted;
    log_line("[w" + std::to_string(w) + "] " + run_id + ": deadline moved by " +
             std::to_string(std::lround(grant - ac->granted)) +
             " s for the time its judge or model server was down");
    ac->granted = grant;
  }
  if (wt.kind != AgentWait::Kind::kExited) wt = run.terminate(opt_.term_grace_s);
  run.kill_group();
  fx_.agents->sweep("HPCAB_EPISODE=" + run_id);
  return wt;
}

bool Daemon::launch_ended(int w, ModelEndpoint* proxy, const StopSignal& stop_code, const Pin& pin,
                          const AttemptPlan& plan, const AgentWait& wt, const AgentClock& ac,
                          Attempt* a) {
  auto end = [a](const char* reason, int code, bool limit) {
    a->exit = {reason, code, {}, ""};
    a->limit = limit;
    return true;
  };
  if (stop_code == 125 || (proxy && proxy->budget_exhausted(plan.run_id))) {
    return end(kTokenBudget, 125, true);
  }
  if (stop_code == 126) return end(kContextOverflow, 126, false);
  if (stopping()) {
    a->interrupted = true;
    return true;
  }
  if (stop_code == kOutageStop) {
    end_for_model_outage(w, pin, plan, a);
    return true;
  }
  if (clock().now_s() >= ac.deadline) return end(kWallBudget, 124, true);
  // An agent that ended without a grade because the judge or the model server failed it is
  // not an agent failure, and a relaunch would meet the same outage.
  if (!graded(plan.state_dir, plan.run_id)) {
    if (auto cause = infra_cause(pin, proxy, stop_code.load(), plan.run_id, plan.state_dir,
                                 ac.started_unix)) {
      end_as_infra(w, plan.run_id, *cause, wt.exit_code, a);
      return true;
    }
  }
  if (wt.exit_code == 0) return end(kNoSubmission, 0, false);
  const std::string exited = "[w" + std::to_string(w) + "] " + plan.run_id +
                             ": agent exited with " + std::to_string(wt.exit_code);
  if (a->relaunches >= arm_.max_relaunches) {
    a->failed = true;
    log_line(exited + "; the end of " + plan.log_path.string() + ":\n" +
             log_tail(plan.log_path, 800));
    return end(kCrash, wt.exit_code, false);
  }
  ++a->relaunches;
  log_line(exited + "; relaunch " + std::to_string(a->relaunches) + " of " +
           std::to_string(arm_.max_relaunches));
  return false;
}

void Daemon::end_for_model_outage(int w, const Pin& pin, const AttemptPlan& plan, Attempt* a) {
  if (graded(plan.state_dir, plan.run_id)) {
    // Stopped for the outage, but with an answer graded before: that answer is the result.
    a->exit = {kSubmitted, 0, {}, ""};
    log_line("[w" + std::to_string(w) + "] " + plan.run_id + ": the model server " +
             pin.inference_url + " stayed unreachable; the episode keeps its graded submission");
    return;
  }
  end_as_infra(w, plan.run_id,
               {kInferenceUnreachable, true,
                "the model server " + pin.inference_url + " stayed unreachable for " +
                    std::to_string(std::lround(outage_.wait_s)) +
                    " s (OUTAGE_WAIT_S): infrastructure failure"},
               kHarnessErrorCode, a);
}

void Daemon::end_as_infra(int w, const std::string& run_id, const InfraCause& c, int code,
                          Attempt* a) {
  a->infra = true;
  a->retire = c.retire;
  a->exit = {c.reason, code, {}, ""};
  log_line("[w" + std::to_string(w) + "] " + run_id + ": " + c.why);
}

std::optional<InfraCause> Daemon::infra_cause(const Pin& pin, ModelEndpoint* proxy, int stop_code,
                                              const std::string& run_id, const fs::path& state_dir,
                                              double since) const {
  if (stop_code == kOutageStop || (proxy && proxy->upstream_gave_up(run_id))) {
    return InfraCause{kInferenceUnreachable, true,
                      "the model server " + pin.inference_url + " stayed unreachable"};
  }
  const double now = clock().unix_s();
  // The tools' word that they gave up on the pinned judge, which the agent could also have
  // written: a transport outage counts only when the monitor saw that judge down meanwhile.
  for (const auto& o : json_lines(state_dir / kOutagesFile)) {
    if (without_slash(o.value("url", "")) != without_slash(pin.judge_url)) continue;
    const bool confirmed = o.value("kind", "") == "http" ||
                           (monitor_ && monitor_->was_down(pin.judge_url, since - 1, now));
    if (!confirmed) continue;
    return InfraCause{kJudgeUnreachable, true,
                      "the agent's tools gave up on judge " + pin.judge_url + " (" +
                          o.value("error", "") + "): infrastructure failure"};
  }
  if (auto faults = json_lines(state_dir / kFaultsFile); !faults.empty()) {
    return InfraCause{kJudgeFault, false,
                      "the judge's machinery failed a grade (" +
                          faults.back().value("fault", nlohmann::json(nullptr)).dump() +
                          ") and no grade came after: infrastructure failure"};
  }
  if (proxy) {
    if (auto down = proxy->upstream_down_since()) {
      return InfraCause{kInferenceUnreachable, false,
                        "the agent ended while the model server " + pin.inference_url +
                            " was unreachable (since " + utc_text(*down) +
                            "): infrastructure failure"};
    }
  }
  return std::nullopt;
}

double Daemon::outage_grant(const Pin& pin, ModelEndpoint* proxy, double since) const {
  const double now = clock().unix_s();
  double lost = monitor_ ? monitor_->down_seconds(pin.judge_url, since, now) : 0;
  if (proxy) lost += proxy->upstream_down_seconds(since, now);
  return std::min(lost, outage_.wait_s);
}

std::string Daemon::outage_status() {
  std::map<std::string, std::pair<std::string, double>> down;  // url -> role, since
  if (monitor_) {
    for (const auto& d : monitor_->down_now()) down[d.url] = {"judge", d.since};
  }
  std::vector<std::string> lines;
  std::string text;
  {
    std::lock_guard lock(proxies_mu_);
    for (const auto& [w, p] : proxies_) {
      (void)w;
      if (auto since = p->upstream_down_since()) {
        const std::string url = p->upstream_url();
        auto it = down.find(url);
        if (it == down.end() || it->second.second > *since) down[url] = {"model server", *since};
      }
    }
    const double now = clock().unix_s();
    for (const auto& [url, d] : down) {
      text += (text.empty() ? " | down: " : ", ") + d.first + " " + url + " since " +
              utc_text(d.second) + " (" + format_duration(now - d.second) + ")";
      if (!reported_down_.count(url)) {
        lines.push_back(d.first + " " + url + " unreachable since " + utc_text(d.second) +
                        "; workers wait up to " + format_duration(outage_.wait_s) +
                        " (OUTAGE_WAIT_S) before an episode ends as an infrastructure failure");
      }
    }
    for (auto it = reported_down_.begin(); it != reported_down_.end();) {
      if (down.count(it->first)) {
        ++it;
        continue;
      }
      lines.push_back(it->second.first + " " + it->first + " answers again after " +
                      format_duration(now - it->second.second));
      it = reported_down_.erase(it);
    }
    for (const auto& [url, d] : down) reported_down_.emplace(url, d);
  }
  for (const auto& l : lines) log_line(l);
  return text;
}

// `w` is the arm's global worker number (the daemon's worker offset already added).
void Daemon::worker_main(int w) {
  const Pin pin = pin_worker(arm_, w, judge_route_);
  SharedDb db;
  auto opened = EpisodeDb::open(arm_.state_db.string());
  if (!opened) {
    set_fatal("worker " + std::to_string(w) + ": " + opened.error().message);
    --workers_left_;
    return;
  }
  db.db = std::move(*opened);

  StopSignal stop_code;
  DbSink sink(db, arm_.token_weights, opt_.log, &log_mu_);
  std::unique_ptr<ModelEndpoint> proxy;
  if (!pin.inference_url.empty()) {
    proxy = open_endpoint(w, pin, stop_code, &sink);
    if (!proxy) {
      --workers_left_;
      return;
    }
  }
  serve(w, pin, db, proxy.get(), stop_code);
  --workers_left_;
}

std::unique_ptr<ModelEndpoint> Daemon::open_endpoint(int w, const Pin& pin, StopSignal& stop_code,
                                                     UsageSink* sink) {
  ProxyOptions po;
  po.upstream_url = pin.inference_url;
  po.upstream_api_key = opt_.upstream_api_key;
  // The proxy's budget check counts in the arm's TOKEN_BUDGET_KIND (all weights 1 for
  // total); the database records the weighted cost with TOKEN_WEIGHTS either way (DbSink).
  po.weights = episode_budget(arm_).budget_weights();
  po.upstream_ca_file = opt_.upstream_ca_file;
  po.tokenizer = arm_.tokenizer_vocab;
  if (!arm_.tokenizer.empty() && !po.tokenizer) {  // an arm parsed, not loaded
    auto vocab = BpeTokenizer::load(arm_.tokenizer);
    if (!vocab) {
      set_fatal("worker " + std::to_string(w) + ": TOKENIZER: " + vocab.error().message);
      return nullptr;
    }
    po.tokenizer = *vocab;
  }
  po.on_budget_exhausted = [&stop_code](const std::string& key) { stop_code.raise(key, 125); };
  po.on_context_overflow = [&stop_code](const std::string& key) { stop_code.raise(key, 126); };
  po.outage = outage_;
  po.on_upstream_outage = [&stop_code](const std::string& key) {
    stop_code.raise(key, kOutageStop);
  };
  if (arm_.gives_search()) po.search = arm_.search;
  auto proxy = fx_.models->open(po, sink);
  auto port = proxy->start();
  if (!port) {
    set_fatal("worker " + std::to_string(w) + ": metering proxy: " + port.error().message);
    return nullptr;
  }
  return proxy;
}

void Daemon::serve(int w, const Pin& pin, SharedDb& db, ModelEndpoint* proxy,
                   StopSignal& stop_code) {
  if (proxy) {
    std::lock_guard lock(proxies_mu_);
    proxies_[w] = proxy;
  }
  // Unregistered before the proxy goes, whichever way this function returns.
  struct Unregister {
    Daemon* d;
    int w;
    ~Unregister() {
      std::lock_guard lock(d->proxies_mu_);
      d->proxies_.erase(w);
    }
  } unregister{this, w};
  log_line("[w" + std::to_string(w) + "] pinned to judge " + pin.judge_url + " (rank " +
           std::to_string(pin.rank) + ")" +
           (pin.inference_url.empty() ? std::string()
                                      : ", inference " + pin.inference_url +
                                            " via proxy :" + std::to_string(proxy->port())));

  while (!stopping()) {
    // Read before the claim: an episode another worker hands back (an infrastructure failure
    // of a worker that then retires) is in the database before that worker stops being busy,
    // so a worker that finds nothing while none was busy may go.
    const int busy_before = busy_.load();
    Result<std::optional<EpisodeRow>> claimed = Error{""};
    {
      std::lock_guard lock(db.mu);
      claimed = db.db->claim(arm_.name, pin, clock().unix_s(), opt_.shard, arm_.infra_retries);
    }
    if (!claimed) {
      log_line("[w" + std::to_string(w) + "] cannot claim an episode: " + claimed.error().message);
      break;
    }
    if (!*claimed) {
      if (busy_before == 0) break;
      clock().sleep(0.2);
      continue;
    }
    const EpisodeRow row = **claimed;
    ++busy_;
    struct Idle {
      std::atomic<int>& busy;
      ~Idle() { --busy; }  // after the attempt is recorded (below), however the loop goes on
    } idle{busy_};
    Attempt a = run_attempt(w, proxy, stop_code, pin, row);
    {
      std::lock_guard lock(summary_mu_);
      ++summary_.attempts_run;
      if (a.reached_judge) ++summary_.reached_judge;
    }
    if (a.interrupted) break;  // left `running`; run() turns it into `interrupted`
    if (record_attempt(w, pin, db, row, a)) break;
  }
}

bool Daemon::record_attempt(int w, const Pin& pin, SharedDb& db, const EpisodeRow& row,
                            const Attempt& a) {
  std::lock_guard lock(db.mu);
  const double now = clock().unix_s();
  std::string what;
  Status st = Ok{};
  if (a.limit && row.limit_reruns == 0) {
    auto requeued = db.db->requeue_for_rerun(row.id, a.exit, arm_.limit_rerun_factor, now);
    if (!requeued) {
      st = Error{requeued.error().message};
    } else if (*requeued) {
      what = "rerun queued with " + std::to_string(arm_.limit_rerun_factor) + "x the budget";
    }
  }
  if (a.infra && st) {
    st = db.db->infra_fail(row.id, a.exit, now);
    what = row.infra_requeues < arm_.infra_retries
               ? "infra_failed, to be handed out again (" + std::to_string(row.infra_requeues + 1) +
                     " of " + std::to_string(arm_.infra_retries) + " in this run)"
               : "infra_failed; left for the next hpcab-harness run";
  }
  if (what.empty() && st) {
    st = a.failed ? db.db->fail(row.id, a.exit, now) : db.db->finish(row.id, a.exit, now);
    what = a.failed ? "failed" : "finished";
  }
  if (!st) {
    log_line("[w" + std::to_string(w) + "] cannot record " + row.id + ": " + st.error().message);
    return false;
  }
  auto after = db.db->get(row.id);
  log_line(attempt_line(w, pin, row, a, after ? *after : std::nullopt, what));
  if (!a.retire) return false;
  // Its judge or model server stayed down for the whole outage wait: another episode would
  // only wait as long again. Other workers (other pins) go on; a restarted daemon runs what is
  // left.
  log_line("[w" + std::to_string(w) + "] retired: " +
           (a.exit.reason == std::string(kInferenceUnreachable)
                ? "model server " + pin.inference_url
                : "judge " + pin.judge_url) +
           " stayed unreachable for " + format_duration(outage_.wait_s) +
           " (OUTAGE_WAIT_S); this worker takes no further episode in this run");
  std::lock_guard l(summary_mu_);
  ++summary_.retired_workers;
  return true;
}

Status Daemon::check_options() const {
  if (opt_.shard.count < 1 || opt_.shard.index < 0 || opt_.shard.index >= opt_.shard.count) {
    return Error{"shard " + std::to_string(opt_.shard.index) + "/" +
                 std::to_string(opt_.shard.count) + " is not a shard (0 <= I < N)"};
  }
  if (opt_.worker_offset < 0) return Error{"the worker offset must be >= 0"};
  if (opt_.tool_path.empty() || ::access(opt_.tool_path.c_str(), X_OK) != 0) {
    return Error{"hpcab-tool not found or not executable at '" + opt_.tool_path +
                 "' (pass --tool)"};
  }
  return Ok{};
}

Status Daemon::route_gpu_judges() {
  std::vector<std::optional<nlohmann::json>> health;
  for (const auto& url : arm_.judge_urls) health.push_back(fx_.judges->health(url));
  auto route = gpu_judges(arm_, health);
  if (!route) return Error{route.error().message};
  judge_route_ = std::move(*route);
  std::string used;
  for (int j : judge_route_) used += (used.empty() ? "" : ", ") + arm_.judge_urls[j];
  log_line("GPU arm (" + arm_.language + "): workers use the judges reporting a GPU: " + used);
  return Ok{};
}

Result<std::unique_ptr<EpisodeDb>> Daemon::open_episodes(int workers) {
  auto db = EpisodeDb::open(arm_.state_db.string());
  if (!db) return Error{db.error().message};
  // A marker per (database, arm): whatever a dead daemon of this slot left running carries it.
  arm_marker_ =
      to_hex(sha256(fs::absolute(arm_.state_db).string() + "\n" + arm_.name)).substr(0, 24);
  if (int n = fx_.agents->sweep("HPCAB_ARM_RUN=" + arm_marker_); n > 0) {
    log_line("killed " + std::to_string(n) + " agent process(es) left by a previous daemon");
  }
  if (auto st = (*db)->record_arm(arm_record(arm_), clock().unix_s()); !st) {
    return Error{st.error().message};
  }
  auto resumed = (*db)->resume(arm_.name, clock().unix_s());
  if (!resumed) return Error{resumed.error().message};
  const auto plan = plan_episodes(arm_, opt_.shard);
  auto added = (*db)->enqueue(plan);
  if (!added) return Error{added.error().message};
  if (*resumed > 0) {
    log_line("resuming: " + std::to_string(*resumed) + " interrupted episode(s) run again");
  }
  if (opt_.shard.count > 1 || opt_.worker_offset > 0) {
    log_line("shard " + std::to_string(opt_.shard.index) + "/" + std::to_string(opt_.shard.count) +
             ": " + std::to_string(plan.size()) + " of the arm's " +
             std::to_string(plan_episodes(arm_).size()) + " episodes; workers " +
             std::to_string(opt_.worker_offset) + ".." +
             std::to_string(opt_.worker_offset + workers - 1) + " of the arm");
  }
  return std::move(*db);
}

void Daemon::load_references() {
  if (opt_.corpus_dir.empty()) return;
  auto corpus = load_corpus(opt_.corpus_dir);
  if (!corpus) return;
  for (const auto& m : *corpus) reference_c_[m.id] = fs::absolute(m.reference_c());
}

void Daemon::start_health_watch(int workers) {
  outage_.wait_s = arm_.outage_wait_s;
  outage_.backoff_max_s = arm_.outage_backoff_max_s;
  // The judges of this daemon's workers, probed often enough to see an outage shorter than
  // the wait (the tools' give-ups are confirmed against it).
  std::vector<std::string> judges;
  for (int w = 0; w < workers; ++w)
    judges.push_back(pin_worker(arm_, opt_.worker_offset + w, judge_route_).judge_url);
  const double interval =
      outage_.wait_s > 0
          ? std::max(0.05, std::min(opt_.health_interval_s, std::max(0.1, outage_.wait_s / 4)))
          : opt_.health_interval_s;
  monitor_ = fx_.judges->watch(judges, interval);
}

void Daemon::print_progress(EpisodeDb& db, double t0, bool final_line) {
  const std::string down = outage_status();  // logs a URL going down or coming back
  if (!opt_.progress) return;
  auto c = db.counts(arm_.name, opt_.shard);
  if (!c) return;
  const double el = clock().now_s() - t0;
  std::lock_guard l(log_mu_);
  if (opt_.progress_tty) *opt_.progress << "\r\33[K";
  *opt_.progress << arm_.name << ": " << status_line(*c) << " | elapsed " << format_duration(el)
                 << down;
  if (!opt_.progress_tty || final_line) *opt_.progress << "\n";
  *opt_.progress << std::flush;
}

void Daemon::wait_for_workers(EpisodeDb& db, double t0) {
  double next = clock().now_s();
  while (workers_left_ > 0) {
    if (stopping()) stop_token_.cancel();  // ends the workers' /task waits at once
    if (clock().now_s() >= next) {
      print_progress(db, t0, false);
      next = clock().now_s() + std::max(0.1, opt_.progress_interval_s);
    }
    clock().sleep(0.05);
  }
}

Result<RunSummary> Daemon::run() {
  const double t0 = clock().now_s();
  if (auto st = check_options(); !st) return Error{st.error().message};
  if (gpu_language(arm_.language)) {
    if (auto st = route_gpu_judges(); !st) return Error{st.error().message};
  }
  auto lock = ArmLock::acquire(arm_.state_db, arm_.name);
  if (!lock) return Error{lock.error().message};
  const int workers = std::max(1, arm_.workers);
  auto db = open_episodes(workers);
  if (!db) return Error{db.error().message};
  load_references();
  start_health_watch(workers);
  workers_left_ = workers;
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([this, g = opt_.worker_offset + w] { worker_main(g); });
  }
  wait_for_workers(**db, t0);
  for (auto& t : threads) t.join();
  monitor_->stop();

  // Stopped by a signal: what was running is handed to the next daemon.
  if (stopping()) {
    (void)(*db)->resume(arm_.name, clock().unix_s());
    summary_.interrupted = true;
  }
  print_progress(**db, t0, true);
  auto c = (*db)->counts(arm_.name, opt_.shard);
  if (c) summary_.counts = *c;
  summary_.elapsed_s = clock().now_s() - t0;
  if (!fatal_.empty()) return Error{fatal_};
  return summary_;
}

}  // namespace

Result<RunSummary> run_arm(const Arm& arm, const DaemonOptions& options,
                           const DaemonEffects& effects) {
  Daemon d(arm, options, effects);
  return d.run();
}

Result<RunSummary> run_arm(const Arm& arm, const DaemonOptions& options) {
  RealDaemonEffects real;
  return run_arm(arm, options, real.effects());
}

// SEARCH_URL without its query (which may hold the endpoint's API key), and the limits.
nlohmann::json search_setup_json(const SearchConfig& c) {
  std::string url;
  if (auto u = parse_url(c.url)) url = u->origin() + u->path;
  return {{"url", url},
          {"domains", c.allowed_domains},
          {"results", c.results},
          {"max_queries", c.max_queries}};
}

std::string arm_setup_json(const Arm& a) {
  nlohmann::json j = {{"name", a.name},
                      {"kernels", a.kernels},
                      {"kernel_selectors", a.kernel_selectors},
                      {"language", a.language},
                      {"residency", a.residency},
                      {"agent", a.agent},
                      {"agent_command", a.agent_command},
                      {"model", a.model},
                      {"inference_urls", a.inference_urls},
                      {"judge_urls", a.judge_urls},
                      {"workers", a.workers},
                      {"repetitions", a.repetitions},
                      {"wall_budget_s", a.wall_budget_s},
                      {"token_budget", a.token_budget},
                      {"token_weights",
                       {{"input", a.token_weights.input},
                        {"cached", a.token_weights.cached},
                        {"output", a.token_weights.output}}},
                      {"submission_policy", a.submission_policy},
                      {"token_budget_kind", a.token_budget_kind},
                      {"tokenizer", a.tokenizer.string()},
                      {"prompt_template", a.prompt_template.string()},
                      {"prompt_fragments", a.prompt_fragments},
                      {"skills", a.skills_dir.string()},
                      {"tools", a.tool_names()},
                      {"search", search_setup_json(a.search)},
                      {"agent_max_turns", a.agent_settings.max_turns},
                      {"agent_disallowed_tools", a.agent_settings.disallowed_tools},
                      {"agent_args", a.agent_settings.extra_args},
                      {"max_relaunches", a.max_relaunches},
                      {"limit_rerun_factor", a.limit_rerun_factor},
                      {"outage_wait_s", a.outage_wait_s},
                      {"outage_backoff_max_s", a.outage_backoff_max_s},
                      {"infra_retries", a.infra_retries},
                      {"library_dir", a.library_dir.string()}};
  return j.dump();
}

std::string format_duration(double seconds) {
  int64_t s = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  std::ostringstream out;
  if (s >= 3600)
    out << s / 3600 << " h " << (s % 3600) / 60 << " min";
  else if (s >= 60)
    out << s / 60 << " min " << s % 60 << " s";
  else
    out << s << " s";
  return out.str();
}

std::string episode_table(const std::vector<EpisodeRow>& rows) {
  std::ostringstream out;
  auto cell = [](const std::string& s, std::size_t w) {
    std::string t = s.size() > w ? s.substr(0, w) : s;
    return t + std::string(w - t.size() + 2, ' ');
  };
  std::size_t idw = 7;
  for (const auto& r : rows) idw = std::max(idw, r.id.size());
  out << cell("episode", idw) << cell("status", 12) << cell("att", 3) << cell("w", 2)
      << cell("rank", 4) << cell("exit", 16) << cell("code", 4) << cell("tokens", 9)
      << cell("wall_s", 7) << cell("submission", 10) << "verdict\n";
  for (const auto& r : rows) {
    std::ostringstream tok, wall;
    tok << std::fixed << std::setprecision(0) << r.weighted_tokens;
    if (r.started_at && r.ended_at)
      wall << std::fixed << std::setprecision(1) << (*r.ended_at - *r.started_at);
    out << cell(r.id, idw) << cell(r.status, 12) << cell(std::to_string(r.attempt), 3)
        << cell(r.worker ? std::to_string(*r.worker) : "-", 2)
        << cell(r.rank ? std::to_string(*r.rank) : "-", 4) << cell(r.exit_reason, 16)
        << cell(r.exit_code ? std::to_string(*r.exit_code) : "", 4) << cell(tok.str(), 9)
        << cell(wall.str(), 7)
        << cell(r.final_submission_id ? std::to_string(*r.final_submission_id) : "", 10)
        << r.final_verdict << "\n";
  }
  return out.str();
}

}  // namespace hpcab::harness
