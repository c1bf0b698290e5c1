// The daemon's rules on fakes (harness/daemon_effects.h): a clock that moves only when a fake
// agent says so, scripted agents, judges and model endpoints in memory, and the real episode
// database in a temporary file. Pinning of N workers to I inference and J judge URLs, the
// budgets (wall 124, tokens 125, context 126) and their one rerun, crash relaunch, outages
// (deadline moved, infra_failed handed out again and never charged, a worker retired), a stop
// and a restart after a dead daemon, in milliseconds. tests/harness/daemon_test.cc runs the
// same daemon end to end with real processes.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "harness/arm.h"
#include "harness/daemon.h"
#include "harness/daemon_effects.h"
#include "harness/episode_db.h"
#include "harness/plan.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr double kUnix0 = 1.8e9;  // the fake clock's unix time at monotonic 0

// A task as a judge's /task answers it, enough to render the prompt and the workspace.
json fake_task(const std::string& kernel) {
  return {
      {"kernel", kernel},
      {"language", "c"},
      {"signature", "void " + kernel + "_fp64(double *restrict a) {\n}\n"},
      {"symbol", kernel + "_fp64"},
      {"prototype", "void " + kernel + "_fp64(double *restrict a);"},
      {"reference_numpy", "def k(a):\n    a[:] = 1\n"},
      {"abi_doc", "C ABI"},
      {"arrays",
       json::array(
           {{{"name", "a"}, {"dtype", "real"}, {"shape", json::array({"N"})}, {"intent", "out"}}})},
      {"sizes", {{"N", 8}}},
      {"preset", "S"},
      {"rtol", 1e-9},
      {"atol", 1e-12}};
}

class FakeWorld;

// One start of a fake agent, as the daemon spawned it.
struct Launch {
  std::map<std::string, std::string> env;
  std::string cwd;
  int index = 0;  // how many agents were started before this one
  std::string get(const std::string& k) const {
    auto it = env.find(k);
    return it == env.end() ? "" : it->second;
  }
  std::string run_id() const { return get("HPCAB_EPISODE"); }
  int worker() const { return std::stoi(get("HPCAB_WORKER")); }
  fs::path state_dir() const { return get("HPCAB_TOOL_STATE"); }
};

// What a fake agent does when first waited for: its side effects, then its exit code, or
// nullopt to run until its deadline or a stop.
using Script = std::function<std::optional<int>(const Launch&, FakeWorld&)>;

// A worker's metering proxy: records what the daemon set and calls the daemon's callbacks when
// a script spends tokens, overflows the context or gives up on the upstream.
class FakeEndpoint : public ModelEndpoint {
 public:
  FakeEndpoint(const ProxyOptions& o, UsageSink* sink, std::uint16_t port,
               std::shared_ptr<std::map<std::string, double>> budget_log)
      : options(o), budgets(std::move(budget_log)), sink_(sink), port_(port) {}
  Result<std::uint16_t> start() override { return port_; }
  std::uint16_t port() const override { return port_; }
  void set_episode(const std::string& episode, double budget) override {
    std::lock_guard lock(mu_);
    episode_ = episode;
    if (!episode.empty()) (*budgets)[episode] = budget;
  }
  bool budget_exhausted(const std::string& episode) const override {
    std::lock_guard lock(mu_);
    return exhausted_.count(episode) > 0;
  }
  bool upstream_gave_up(const std::string& episode) const override {
    std::lock_guard lock(mu_);
    return gave_up_.count(episode) > 0;
  }
  std::optional<double> upstream_down_since() const override { return std::nullopt; }
  double upstream_down_seconds(double, double) const override { return 0; }
  std::string upstream_url() const override { return options.upstream_url; }

  // A request of `tokens` input tokens, recorded and checked against the episode's budget.
  void spend(const std::string& run_id, int64_t tokens) {
    RequestRecord r;
    r.episode = run_id;
    r.usage.input = tokens;
    r.usage.seen = true;
    r.status = 200;
    sink_->record(r);
    bool over = false;
    {
      std::lock_guard lock(mu_);
      spent_[run_id] += static_cast<double>(tokens);
      const double budget = (*budgets)[run_id];
      over = budget > 0 && spent_[run_id] >= budget && exhausted_.insert(run_id).second;
    }
    if (over) options.on_budget_exhausted(run_id);
  }
  void overflow(const std::string& run_id) { options.on_context_overflow(run_id); }
  void give_up(const std::string& run_id) {
    {
      std::lock_guard lock(mu_);
      gave_up_.insert(run_id);
    }
    options.on_upstream_outage(run_id);
  }

  const ProxyOptions options;
  // By run id, as set_episode() last gave it; shared with FakeWorld::budgets_of, which keeps
  // it readable after the worker (and this endpoint) is gone. Guarded by mu_.
  std::shared_ptr<std::map<std::string, double>> budgets;

 private:
  mutable std::mutex mu_;
  UsageSink* sink_;
  std::uint16_t port_;
  std::string episode_;
  std::map<std::string, double> spent_;
  std::set<std::string> exhausted_, gave_up_;
};

// Outages of judges as the daemon's health probes would have seen them: closed intervals of
// unix seconds per URL.
class FakeHealthWatch : public JudgeHealthWatch {
 public:
  explicit FakeHealthWatch(std::map<std::string, std::vector<std::pair<double, double>>> down)
      : down_(std::move(down)) {}
  void stop() override {}
  std::vector<HealthMonitor::Down> down_now() const override { return {}; }
  bool was_down(const std::string& url, double from, double to) const override {
    return down_seconds(url, from, to) > 0;
  }
  double down_seconds(const std::string& url, double from, double to) const override {
    auto it = down_.find(url);
    if (it == down_.end()) return 0;
    double s = 0;
    for (const auto& [a, b] : it->second) s += std::max(0.0, std::min(b, to) - std::max(a, from));
    return s;
  }

 private:
  std::map<std::string, std::vector<std::pair<double, double>>> down_;
};

class FakeWorld : public DaemonClock,
                  public AgentLauncher,
                  public JudgeGateway,
                  public ModelEndpoints {
 public:
  // The clock: moves only by advance_to (a hanging agent reaching its deadline) or advance.
  double now_s() override {
    std::lock_guard lock(mu_);
    return now_;
  }
  double unix_s() override { return kUnix0 + now_s(); }
  void sleep(double) override { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }
  void advance_to(double t) {
    std::lock_guard lock(mu_);
    now_ = std::max(now_, t);
  }

  // The agents.
  Result<std::unique_ptr<AgentRun>> start(const AgentSpawn& spawn) override;
  int sweep(const std::string& entry) override {
    std::lock_guard lock(mu_);
    sweeps.push_back(entry);
    return 0;
  }

  // The judges.
  TaskReply task(const TaskRequest& r) override {
    {
      std::lock_guard lock(mu_);
      task_requests.push_back(r.settings);
    }
    cv_.notify_all();
    TaskReply reply;
    if (unreachable_judges.count(r.settings.url)) {
      reply.task = Error{"connect: Connection refused", Errc::kNotSent};
      reply.failure = Failure::kTransport;
    } else {
      reply.task = fake_task(r.kernel);
    }
    return reply;
  }
  std::optional<json> health(const std::string& url) override {
    auto it = health_of.find(url);
    return it == health_of.end() ? std::nullopt : it->second;
  }
  std::unique_ptr<JudgeHealthWatch> watch(const std::vector<std::string>&, double) override {
    return std::make_unique<FakeHealthWatch>(judge_down);
  }

  // The model endpoints, one per worker, on ports 4000, 4001, ... in the order opened.
  std::unique_ptr<ModelEndpoint> open(const ProxyOptions& o, UsageSink* sink) override {
    std::lock_guard lock(mu_);
    const auto port = static_cast<std::uint16_t>(4000 + opened_);
    auto log = std::make_shared<std::map<std::string, double>>();
    budgets_of[port] = log;
    auto e = std::make_unique<FakeEndpoint>(o, sink, port, log);
    endpoints[e->port()] = e.get();
    upstreams[e->port()] = o.upstream_url;
    ++opened_;
    return e;
  }
  // The endpoint of the worker that started `l` (its MODEL_URL's port).
  FakeEndpoint& endpoint(const Launch& l) {
    const std::string url = l.get("MODEL_URL");
    std::lock_guard lock(mu_);
    return *endpoints.at(static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1))));
  }

  // Waits (really, at most 10 s) until a /task request reached `url`.
  bool wait_for_task_request(const std::string& url) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10), [&] {
      for (const auto& s : task_requests)
        if (s.url == url) return true;
      return false;
    });
  }

  std::vector<Launch> launches_copy() {
    std::lock_guard lock(mu_);
    return launches;
  }

  DaemonEffects effects() { return {this, this, this, this}; }

  Script script = [](const Launch&, FakeWorld&) { return std::optional<int>(0); };
  std::set<std::string> unreachable_judges;
  std::map<std::string, std::optional<json>> health_of;
  std::map<std::string, std::vector<std::pair<double, double>>> judge_down;
  // What happened, guarded by mu_ while the daemon runs.
  std::vector<Launch> launches;
  std::vector<std::string> sweeps;
  std::vector<JudgeSettings> task_requests;
  std::map<std::uint16_t, FakeEndpoint*> endpoints;  // alive while their worker runs
  // Each endpoint's budgets by run id, readable once the daemon has returned.
  std::map<std::uint16_t, std::shared_ptr<std::map<std::string, double>>> budgets_of;
  std::map<std::uint16_t, std::string> upstreams;
  int terminated = 0;

 private:
  friend class FakeAgent;
  std::mutex mu_;
  std::condition_variable cv_;
  double now_ = 100;
  int opened_ = 0;
};

class FakeAgent : public AgentRun {
 public:
  FakeAgent(FakeWorld& world, Launch launch) : world_(world), launch_(std::move(launch)) {}
  AgentWait wait(double deadline, const std::function<bool()>& stop) override {
    if (!ran_) {
      ran_ = true;
      exit_ = world_.script(launch_, world_);
    }
    AgentWait w;
    if (exit_) {
      w.exit_code = *exit_;
      return w;
    }
    if (stop()) {
      w.kind = AgentWait::Kind::kStopped;
      return w;
    }
    world_.advance_to(deadline);
    w.kind = AgentWait::Kind::kDeadline;
    return w;
  }
  AgentWait terminate(double) override {
    {
      std::lock_guard lock(world_.mu_);
      ++world_.terminated;
    }
    AgentWait w;
    w.exit_code = exit_ ? *exit_ : 143;
    w.term_signal = exit_ ? 0 : 15;
    return w;
  }
  void kill_group() override {}

 private:
  FakeWorld& world_;
  Launch launch_;
  bool ran_ = false;
  std::optional<int> exit_;
};

Result<std::unique_ptr<AgentRun>> FakeWorld::start(const AgentSpawn& spawn) {
  Launch l;
  for (const auto& kv : spawn.env) {
    const auto eq = kv.find('=');
    l.env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  l.cwd = spawn.cwd;
  {
    std::lock_guard lock(mu_);
    l.index = static_cast<int>(launches.size());
    launches.push_back(l);
  }
  return std::unique_ptr<AgentRun>(std::make_unique<FakeAgent>(*this, std::move(l)));
}

class DaemonRules : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-rules-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // An arm of `kernels` stand-in kernels run by AGENT=command (the fakes never run it).
  Arm arm(const std::string& settings, int kernels = 1) {
    auto a = parse_arm("NAME=r\nKERNELS=all\nAGENT=command\nAGENT_COMMAND=true\n" + settings +
                           "\nSTATE_DB=" + (dir_ / "harness.db").string() + "\n",
                       (dir_ / "arm.env").string(), dir_);
    EXPECT_TRUE(a) << (a ? "" : a.error().message);
    if (!a) return Arm{};
    a->kernels.clear();
    for (int k = 0; k < kernels; ++k) a->kernels.push_back("k" + std::to_string(k));
    return *a;
  }

  DaemonOptions options() {
    DaemonOptions o;
    o.workspace_root = dir_ / "ws";
    o.tool_path = "/bin/true";  // must be executable; the fakes never run it
    o.log = &log_;
    return o;
  }

  Result<RunSummary> run(const Arm& a, const DaemonOptions& o) {
    return run_arm(a, o, world_.effects());
  }
  Result<RunSummary> run(const Arm& a) { return run(a, options()); }

  std::vector<EpisodeRow> rows(const std::string& arm_name = "r") {
    auto db = EpisodeDb::open((dir_ / "harness.db").string());
    EXPECT_TRUE(db);
    auto r = (*db)->list(arm_name);
    EXPECT_TRUE(r);
    return r ? *r : std::vector<EpisodeRow>{};
  }

  std::vector<std::string> run_ids() {
    std::vector<std::string> out;
    for (const auto& l : world_.launches_copy()) out.push_back(l.run_id());
    return out;
  }

  fs::path dir_;
  std::ostringstream log_;
  FakeWorld world_;
};

// N=5 workers, I=2 inference URLs, J=3 judges: worker w keeps inference_urls[w % 2] (its own
// proxy) and judge_urls[w % 3] with rank w % 3 for every episode it runs, in its /task request,
// its agent's environment and the episode's row.
TEST_F(DaemonRules, PinsNWorkersToIInferenceAndJJudgeUrls) {
  const std::vector<std::string> models = {"http://m0:1", "http://m1:1"};
  const std::vector<std::string> judges = {"http://j0:1", "http://j1:1", "http://j2:1"};
  Arm a = arm("WORKERS=5\nINFERENCE_URLS=" + models[0] + "," + models[1] +
                  "\nJUDGE_URLS=" + judges[0] + "," + judges[1] + "," + judges[2],
              12);
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->counts.finished, 12);
  EXPECT_EQ(s->attempts_run, 12);
  EXPECT_EQ(s->reached_judge, 12);

  ASSERT_EQ(world_.upstreams.size(), 5u) << "one proxy per worker";
  std::map<int, std::uint16_t> port_of;  // worker -> its proxy's port
  for (const auto& l : world_.launches_copy()) {
    const int w = l.worker();
    ASSERT_GE(w, 0);
    ASSERT_LT(w, 5);
    EXPECT_EQ(l.get("JUDGE_URL"), judges[w % 3]);
    EXPECT_EQ(l.get("JUDGE_RANK"), std::to_string(w % 3));
    const std::string url = l.get("MODEL_URL");
    const auto port = static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
    EXPECT_EQ(world_.upstreams.at(port), models[w % 2]) << "worker " << w;
    auto [it, fresh] = port_of.emplace(w, port);
    EXPECT_EQ(it->second, port) << "worker " << w << " changed proxies";
    (void)fresh;
  }
  for (const auto& t : world_.task_requests) {
    bool found = false;
    for (int j = 0; j < 3; ++j) found |= t.url == judges[j] && t.rank == j;
    EXPECT_TRUE(found) << t.url << " rank " << t.rank;
  }
  for (const auto& r : rows()) {
    EXPECT_EQ(r.status, "finished") << r.id;
    ASSERT_TRUE(r.worker && r.rank) << r.id;
    EXPECT_EQ(*r.rank, *r.worker % 3) << r.id;
    EXPECT_EQ(r.judge_url, judges[*r.worker % 3]) << r.id;
    EXPECT_EQ(r.inference_url, models[*r.worker % 2]) << r.id;
  }
}

// A daemon of a shard with a worker offset pins as the arm's global workers K.. do.
TEST_F(DaemonRules, WorkerOffsetPinsTheArmsGlobalWorkers) {
  const std::vector<std::string> judges = {"http://j0:1", "http://j1:1", "http://j2:1"};
  Arm a = arm("WORKERS=2\nJUDGE_URLS=" + judges[0] + "," + judges[1] + "," + judges[2], 6);
  DaemonOptions o = options();
  o.shard = Shard{1, 2};
  o.worker_offset = 2;
  auto s = run(a, o);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->counts.finished, 3) << "the shard's half of 6";
  for (const auto& r : rows()) {
    EXPECT_EQ(r.seq % 2, 1) << r.id;
    ASSERT_TRUE(r.worker && r.rank);
    EXPECT_TRUE(*r.worker == 2 || *r.worker == 3) << r.id;
    EXPECT_EQ(*r.rank, *r.worker % 3);
    EXPECT_EQ(r.judge_url, judges[*r.worker % 3]);
  }
}

// A GPU arm runs only on the judges whose /health lists a GPU; with none it fails before
// anything is queued.
TEST_F(DaemonRules, GpuArmRunsOnlyOnJudgesReportingAGpu) {
  world_.health_of["http://j0:1"] = json{{"gpus", json::array()}};
  world_.health_of["http://j1:1"] = json{{"gpus", json::array({{{"name", "H100"}}})}};
  Arm a = arm("LANGUAGE=cuda\nWORKERS=2\nJUDGE_URLS=http://j0:1,http://j1:1", 3);
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->counts.finished, 3);
  for (const auto& r : rows()) {
    EXPECT_EQ(r.judge_url, "http://j1:1") << r.id;
    EXPECT_EQ(r.rank, 1) << r.id;
  }

  Arm none = arm("LANGUAGE=hip\nJUDGE_URLS=http://j0:1");
  none.name = "none";
  EXPECT_FALSE(run(none));
  EXPECT_TRUE(rows("none").empty());
}

// An agent that outlives its wall budget is stopped at the deadline (124), its group swept,
// and the episode rerun once with LIMIT_RERUN_FACTOR times the budget, then finished as 124.
TEST_F(DaemonRules, WallBudgetStopsWith124AndRerunsOnceWithTheFactor) {
  world_.script = [](const Launch&, FakeWorld&) { return std::optional<int>(); };  // hangs
  Arm a = arm("WALL_BUDGET_S=60\nLIMIT_RERUN_FACTOR=3\nJUDGE_URLS=http://j0:1");
  const double t0 = world_.now_s();
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_reason, "wall_budget");
  EXPECT_EQ(r[0].exit_code, 124);
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].limit_reruns, 1);
  EXPECT_DOUBLE_EQ(r[0].budget_factor, 3.0);
  EXPECT_DOUBLE_EQ(world_.now_s() - t0, 60 + 180) << "each attempt ran to its own deadline";
  EXPECT_EQ(run_ids(), (std::vector<std::string>{"r/k0/0#1", "r/k0/0#2"}));
  EXPECT_EQ(world_.terminated, 2);
  for (const char* id : {"r/k0/0#1", "r/k0/0#2"}) {
    EXPECT_EQ(
        std::count(world_.sweeps.begin(), world_.sweeps.end(), std::string("HPCAB_EPISODE=") + id),
        1)
        << id;
  }
}

// The proxy says the token budget is spent: 125, rerun once with a budget LIMIT_RERUN_FACTOR
// times larger, every token of both attempts on the episode.
TEST_F(DaemonRules, TokenBudgetStopsWith125AndTheRerunGetsTheLargerBudget) {
  world_.script = [](const Launch& l, FakeWorld& w) {
    w.endpoint(l).spend(l.run_id(), 400);
    return std::optional<int>();  // would go on, but the proxy stops it
  };
  Arm a =
      arm("WALL_BUDGET_S=60\nTOKEN_BUDGET=150\nTOKEN_BUDGET_KIND=total\nLIMIT_RERUN_FACTOR=2\n"
          "INFERENCE_URLS=http://m0:1\nJUDGE_URLS=http://j0:1");
  const double t0 = world_.now_s();
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_reason, "token_budget");
  EXPECT_EQ(r[0].exit_code, 125);
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].limit_reruns, 1);
  EXPECT_EQ(r[0].input_tokens, 800);
  EXPECT_EQ(r[0].requests, 2);
  EXPECT_DOUBLE_EQ(world_.now_s(), t0) << "stopped at once, not at the wall deadline";
  ASSERT_EQ(world_.budgets_of.size(), 1u);
  const auto& budgets = *world_.budgets_of.begin()->second;
  EXPECT_DOUBLE_EQ(budgets.at("r/k0/0#1"), 150);
  EXPECT_DOUBLE_EQ(budgets.at("r/k0/0#2"), 300);
}

// The model's context window overflowed: 126, neither relaunched nor rerun.
TEST_F(DaemonRules, ContextOverflowEndsWith126WithoutRelaunchOrRerun) {
  world_.script = [](const Launch& l, FakeWorld& w) {
    w.endpoint(l).overflow(l.run_id());
    return std::optional<int>(3);
  };
  Arm a = arm("MAX_RELAUNCHES=2\nINFERENCE_URLS=http://m0:1\nJUDGE_URLS=http://j0:1");
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_reason, "context_overflow");
  EXPECT_EQ(r[0].exit_code, 126);
  EXPECT_EQ(r[0].attempt, 1);
  EXPECT_EQ(r[0].limit_reruns, 0);
  EXPECT_EQ(world_.launches_copy().size(), 1u);
}

// A crash is relaunched in the same workspace within the same attempt, up to MAX_RELAUNCHES;
// past them the episode fails with the agent's exit code.
TEST_F(DaemonRules, CrashIsRelaunchedInTheSameAttemptUpToMaxRelaunches) {
  world_.script = [](const Launch& l, FakeWorld&) {
    return std::optional<int>(l.index < 2 ? 7 : 0);
  };
  Arm a = arm("MAX_RELAUNCHES=2\nJUDGE_URLS=http://j0:1");
  ASSERT_TRUE(run(a));
  auto r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_code, 0);
  EXPECT_EQ(r[0].attempt, 1) << "relaunches are not new attempts";
  auto launches = world_.launches_copy();
  ASSERT_EQ(launches.size(), 3u);
  for (const auto& l : launches) {
    EXPECT_EQ(l.run_id(), "r/k0/0#1");
    EXPECT_EQ(l.cwd, launches[0].cwd);
  }

  world_.script = [](const Launch&, FakeWorld&) { return std::optional<int>(7); };
  Arm b = arm("MAX_RELAUNCHES=1\nJUDGE_URLS=http://j0:1");
  b.name = "broken";
  ASSERT_TRUE(run(b));
  r = rows("broken");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "failed");
  EXPECT_EQ(r[0].exit_reason, "crash");
  EXPECT_EQ(r[0].exit_code, 7);
  EXPECT_EQ(world_.launches_copy().size(), 3u + 2u) << "one launch and one relaunch";
}

// A judge that stays unreachable for the /task: the attempt is infra_failed, not charged to the
// episode (no limit rerun, no failure), its worker retires and another worker, pinned to a
// judge that answers, runs the episode again.
TEST_F(DaemonRules, UnreachableJudgeIsRequeuedToAnotherWorkerAndNotCharged) {
  world_.unreachable_judges = {"http://j1:1"};
  // Worker 0 holds its first episode until worker 1 has met its judge's outage.
  world_.script = [](const Launch& l, FakeWorld& w) {
    if (l.index == 0) {
      EXPECT_TRUE(w.wait_for_task_request("http://j1:1"));
    }
    return std::optional<int>(0);
  };
  Arm a = arm("WORKERS=2\nINFRA_RETRIES=2\nJUDGE_URLS=http://j0:1,http://j1:1", 2);
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->retired_workers, 1);
  EXPECT_EQ(s->counts.finished, 2);
  EXPECT_EQ(s->counts.infra_failed, 0);
  int requeued = 0;
  for (const auto& r : rows()) {
    EXPECT_EQ(r.status, "finished") << r.id;
    EXPECT_EQ(r.worker, 0) << r.id;
    EXPECT_EQ(r.limit_reruns, 0) << r.id;
    EXPECT_DOUBLE_EQ(r.budget_factor, 1.0) << r.id;
    if (r.infra_failures == 1) {
      ++requeued;
      EXPECT_EQ(r.attempt, 2) << r.id;
    }
  }
  EXPECT_EQ(requeued, 1);
  for (const auto& l : world_.launches_copy()) EXPECT_EQ(l.get("JUDGE_URL"), "http://j0:1");
}

// The proxy gave up on the model server: infra_failed (inference_unreachable) with no
// relaunch, the worker retires, and the next daemon run finishes the episode. A grade the
// agent had before the outage stands instead.
TEST_F(DaemonRules, ModelServerOutageEndsAsInfraFailureAndTheNextRunFinishesIt) {
  world_.script = [](const Launch& l, FakeWorld& w) {
    if (l.index == 0) {
      w.endpoint(l).give_up(l.run_id());
      return std::optional<int>();
    }
    return std::optional<int>(0);
  };
  Arm a = arm("MAX_RELAUNCHES=2\nINFERENCE_URLS=http://m0:1\nJUDGE_URLS=http://j0:1");
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->retired_workers, 1);
  EXPECT_EQ(s->counts.infra_failed, 1);
  auto r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "infra_failed");
  EXPECT_EQ(r[0].exit_reason, "inference_unreachable");
  EXPECT_EQ(r[0].infra_failures, 1);
  EXPECT_EQ(world_.launches_copy().size(), 1u) << "an outage is not relaunched";

  auto again = run(a);
  ASSERT_TRUE(again) << again.error().message;
  r = rows();
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].limit_reruns, 0);

  world_.script = [](const Launch& l, FakeWorld& w) {
    std::ofstream(l.state_dir() / "submissions.jsonl") << R"({"submission_id":7,"verdict":"ok"})"
                                                       << "\n";
    w.endpoint(l).give_up(l.run_id());
    return std::optional<int>();
  };
  Arm g = arm("INFERENCE_URLS=http://m0:1\nJUDGE_URLS=http://j0:1");
  g.name = "graded";
  ASSERT_TRUE(run(g));
  r = rows("graded");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_reason, "submitted");
  EXPECT_EQ(r[0].final_submission_id, 7);
}

// A grade that was a judge fault, with no grade after it: infra_failed, handed out again in the
// same run (INFRA_RETRIES) by the same worker, which does not retire.
TEST_F(DaemonRules, JudgeFaultIsInfraFailedAndHandedOutAgain) {
  world_.script = [](const Launch& l, FakeWorld&) {
    if (l.index == 0) {
      std::ofstream(l.state_dir() / "faults.jsonl") << R"({"fault":"harness_fault"})"
                                                    << "\n";
    }
    return std::optional<int>(0);
  };
  Arm a = arm("INFRA_RETRIES=1\nJUDGE_URLS=http://j0:1");
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->retired_workers, 0);
  auto r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].infra_failures, 1);
  EXPECT_EQ(r[0].limit_reruns, 0);
}

// Time the pinned judge was down during the attempt moves its deadline, at most by
// OUTAGE_WAIT_S; an outage before the attempt gives nothing.
TEST_F(DaemonRules, JudgeOutageMovesTheDeadlineByAtMostTheOutageWait) {
  const double t0 = world_.now_s();
  world_.judge_down["http://j0:1"] = {{kUnix0 + t0 + 10, kUnix0 + t0 + 40}};  // 30 s down
  world_.script = [](const Launch&, FakeWorld&) { return std::optional<int>(); };
  Arm a = arm("WALL_BUDGET_S=60\nLIMIT_RERUN_FACTOR=1\nOUTAGE_WAIT_S=20\nJUDGE_URLS=http://j0:1");
  ASSERT_TRUE(run(a));
  auto r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].exit_code, 124);
  EXPECT_EQ(r[0].attempt, 2);
  // Attempt 1: 60 s plus 20 of the 30 s outage (OUTAGE_WAIT_S); attempt 2, after it: 60 s.
  EXPECT_DOUBLE_EQ(world_.now_s() - t0, 80 + 60);
}

// A stop leaves the running episode `interrupted` (its agent stopped, not charged); the next
// daemon runs it again as a new attempt.
TEST_F(DaemonRules, StopLeavesTheEpisodeInterruptedForTheNextRun) {
  std::atomic<bool> stop{false};
  world_.script = [&stop](const Launch&, FakeWorld&) {
    stop = true;
    return std::optional<int>();
  };
  Arm a = arm("JUDGE_URLS=http://j0:1", 2);
  DaemonOptions o = options();
  o.stop = &stop;
  auto s = run(a, o);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_TRUE(s->interrupted);
  EXPECT_EQ(world_.terminated, 1);
  auto r = rows();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].status, "interrupted");
  EXPECT_EQ(r[1].status, "queued");

  world_.script = [](const Launch&, FakeWorld&) { return std::optional<int>(0); };
  auto again = run(a);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(again->interrupted);
  r = rows();
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[1].status, "finished");
  EXPECT_EQ(r[1].attempt, 1);
}

// A daemon that died left one episode finished and one running: the next daemon sweeps the dead
// one's agents (by the arm's marker), runs the running one again as a new attempt and never
// reruns the finished one.
TEST_F(DaemonRules, RestartAfterADeadDaemonSweepsItsAgentsAndResumes) {
  Arm a = arm("JUDGE_URLS=http://j0:1", 3);
  {
    auto db = EpisodeDb::open((dir_ / "harness.db").string());
    ASSERT_TRUE(db);
    ASSERT_TRUE((*db)->enqueue(plan_episodes(a)));
    const Pin pin = pin_worker(a, 0);
    auto first = (*db)->claim("r", pin, kUnix0);
    ASSERT_TRUE(first && *first);
    ASSERT_TRUE((*db)->finish((*first)->id, ExitInfo{"submitted", 0, 1, "ok"}, kUnix0 + 1));
    auto second = (*db)->claim("r", pin, kUnix0 + 2);
    ASSERT_TRUE(second && *second);  // left running by the dead daemon
  }
  auto s = run(a);
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_FALSE(world_.sweeps.empty());
  EXPECT_EQ(world_.sweeps[0].rfind("HPCAB_ARM_RUN=", 0), 0u) << "the dead daemon's agents first";
  EXPECT_EQ(run_ids(), (std::vector<std::string>{"r/k1/0#2", "r/k2/0#1"}));
  auto r = rows();
  ASSERT_EQ(r.size(), 3u);
  for (const auto& e : r) EXPECT_EQ(e.status, "finished") << e.id;
  EXPECT_EQ(r[0].attempt, 1);
  EXPECT_EQ(r[0].final_submission_id, 1) << "the finished episode is untouched";
  EXPECT_EQ(r[1].attempt, 2);
  EXPECT_EQ(r[2].attempt, 1);
}

}  // namespace
}  // namespace hpcab::harness
