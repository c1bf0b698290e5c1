// The harness daemon's side effects behind small interfaces (as judge/grade/effects.h does for a
// grade): the clock, the agent processes, the judges, the model endpoints. The daemon's rules
// (pinning, budget stops, relaunch, resume, backoff and requeue on an outage) are then
// unit-tested with fakes in milliseconds (tests/harness/daemon_rules_test.cc), while
// harness/daemon_real_effects.h wires them to the OS, the judges over HTTP and the metering
// proxies for hpcab-harness and its end-to-end tests. The episode database stays real (SQLite in
// a file), which is fast enough for the fakes' tests.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/http_client.h"
#include "common/result.h"
#include "harness/agent_process.h"
#include "harness/judge_client.h"
#include "harness/outage.h"
#include "harness/proxy.h"

namespace hpcab::harness {

// Two time lines: monotonic seconds for deadlines and durations, unix seconds for what is
// recorded and for outage intervals (those of JudgeHealthWatch and ModelEndpoint).
class DaemonClock {
 public:
  virtual ~DaemonClock() = default;
  virtual double now_s() = 0;   // monotonic
  virtual double unix_s() = 0;  // wall clock
  // A poll interval of the daemon's loops (waiting for a claimable episode, for the workers).
  virtual void sleep(double seconds) = 0;
};

// One started agent (its process group).
class AgentRun {
 public:
  virtual ~AgentRun() = default;  // kills the group if still running
  // Waits until the agent exits, DaemonClock::now_s() reaches `deadline`, or `stop()` returns
  // true (AgentWait::Kind says which).
  virtual AgentWait wait(double deadline, const std::function<bool()>& stop) = 0;
  // SIGTERM, up to `grace_s` for the group to exit, then SIGKILL; how the agent ended.
  virtual AgentWait terminate(double grace_s) = 0;
  // SIGKILL to what the agent left running in its group.
  virtual void kill_group() = 0;
};

class AgentLauncher {
 public:
  virtual ~AgentLauncher() = default;
  // Errors: the log cannot be opened, fork fails.
  virtual Result<std::unique_ptr<AgentRun>> start(const AgentSpawn& spawn) = 0;
  // Kills every process whose environment holds `entry` ("NAME=value"): what left an agent's
  // group, or what a dead daemon left running. Returns how many were signalled.
  virtual int sweep(const std::string& entry) = 0;
};

// The daemon's own /task request of one attempt.
struct TaskRequest {
  JudgeSettings settings;  // url, rank, run id, timeout and outage policy
  std::string kernel, language;
  const CancelToken* cancel = nullptr;  // cancelled when the daemon stops
  OutageObserver observer;              // told when the request waits out an outage
};

struct TaskReply {
  Result<nlohmann::json> task = Error{"no task"};
  // Why it failed: Failure::kTransport when the judge stayed unreachable past the outage wait
  // (an infrastructure failure), anything else is the judge's answer or a local error.
  Failure failure = Failure::kNone;
};

// Which judges are down, since when (the daemon's health probes of its workers' judges).
class JudgeHealthWatch {
 public:
  virtual ~JudgeHealthWatch() = default;
  virtual void stop() = 0;  // no more probes; what was seen stays readable
  virtual std::vector<HealthMonitor::Down> down_now() const = 0;
  // Whether `url` was seen down at some moment of [from, to] (unix seconds).
  virtual bool was_down(const std::string& url, double from, double to) const = 0;
  // How many seconds of [from, to] `url` was seen down.
  virtual double down_seconds(const std::string& url, double from, double to) const = 0;
};

class JudgeGateway {
 public:
  virtual ~JudgeGateway() = default;
  // GET /task, waiting out an outage as settings.outage says.
  virtual TaskReply task(const TaskRequest& request) = 0;
  // GET <url>/health's JSON body, nullopt when the judge did not answer 200 with JSON.
  virtual std::optional<nlohmann::json> health(const std::string& url) = 0;
  // Starts probing `urls` every `interval_s`.
  virtual std::unique_ptr<JudgeHealthWatch> watch(const std::vector<std::string>& urls,
                                                  double interval_s) = 0;
};

// A worker's model endpoint: the metering proxy before its pinned inference URL. The proxy's
// callbacks (ProxyOptions::on_budget_exhausted, on_context_overflow, on_upstream_outage) and
// usage records (the UsageSink) are how it tells the daemon what happened.
class ModelEndpoint {
 public:
  virtual ~ModelEndpoint() = default;
  // Starts serving on loopback; the port. Errors: a bad upstream URL, a bind failure.
  virtual Result<std::uint16_t> start() = 0;
  virtual std::uint16_t port() const = 0;
  // The meaning of these is MeteringProxy's (harness/proxy.h).
  virtual void set_episode(const std::string& episode, double budget) = 0;
  virtual bool budget_exhausted(const std::string& episode) const = 0;
  virtual bool upstream_gave_up(const std::string& episode) const = 0;
  virtual std::optional<double> upstream_down_since() const = 0;
  virtual double upstream_down_seconds(double from, double to) const = 0;
  virtual std::string upstream_url() const = 0;
};

class ModelEndpoints {
 public:
  virtual ~ModelEndpoints() = default;
  // `sink` outlives the endpoint.
  virtual std::unique_ptr<ModelEndpoint> open(const ProxyOptions& options, UsageSink* sink) = 0;
};

// Everything a daemon touches outside its memory, its workspaces and its episode database. Not
// owned; each must be safe to use from every worker thread at once.
struct DaemonEffects {
  DaemonClock* clock = nullptr;
  AgentLauncher* agents = nullptr;
  JudgeGateway* judges = nullptr;
  ModelEndpoints* models = nullptr;
};

}  // namespace hpcab::harness
