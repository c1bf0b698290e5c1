// The daemon's side effects (harness/daemon_effects.h) as hpcab-harness has them: the steady and
// system clocks, agent process groups (harness/agent_process.h), the judges over HTTP(S)
// (harness/judge_client.h, its health probes by harness/outage.h's HealthMonitor) and a
// metering proxy (harness/proxy.h) per worker.
#pragma once

#include <memory>

#include "harness/daemon_effects.h"
#include "harness/judge_client.h"

namespace hpcab::harness {

class RealDaemonClock : public DaemonClock {
 public:
  double now_s() override;
  double unix_s() override;
  void sleep(double seconds) override;
};

class RealAgentLauncher : public AgentLauncher {
 public:
  Result<std::unique_ptr<AgentRun>> start(const AgentSpawn& spawn) override;
  int sweep(const std::string& entry) override;
};

class RealJudgeGateway : public JudgeGateway {
 public:
  // `transport` empty: real HTTP(S) (JudgeClient's own); else every /task goes through it.
  explicit RealJudgeGateway(HeaderTransport transport = {}) : transport_(std::move(transport)) {}
  TaskReply task(const TaskRequest& request) override;
  std::optional<nlohmann::json> health(const std::string& url) override;
  std::unique_ptr<JudgeHealthWatch> watch(const std::vector<std::string>& urls,
                                          double interval_s) override;

 private:
  HeaderTransport transport_;
};

class RealModelEndpoints : public ModelEndpoints {
 public:
  std::unique_ptr<ModelEndpoint> open(const ProxyOptions& options, UsageSink* sink) override;
};

// One of each, for run_arm(arm, options).
class RealDaemonEffects {
 public:
  DaemonEffects effects() { return {&clock_, &agents_, &judges_, &models_}; }

 private:
  RealDaemonClock clock_;
  RealAgentLauncher agents_;
  RealJudgeGateway judges_;
  RealModelEndpoints models_;
};

}  // namespace hpcab::harness
