#include "harness/daemon_real_effects.h"

#include <chrono>
#include <thread>

#include "harness/outage.h"

namespace hpcab::harness {

namespace {

using Steady = std::chrono::steady_clock;

Steady::time_point steady_at(double seconds) {
  return Steady::time_point(
      std::chrono::duration_cast<Steady::duration>(std::chrono::duration<double>(seconds)));
}

class RealAgentRun : public AgentRun {
 public:
  explicit RealAgentRun(AgentProcess p) : p_(std::move(p)) {}
  AgentWait wait(double deadline, const std::function<bool()>& stop) override {
    return p_.wait(steady_at(deadline), stop);
  }
  AgentWait terminate(double grace_s) override { return p_.terminate(grace_s); }
  void kill_group() override { p_.kill_group(); }

 private:
  AgentProcess p_;
};

class RealHealthWatch : public JudgeHealthWatch {
 public:
  RealHealthWatch(const std::vector<std::string>& urls, double interval_s)
      : monitor_(urls, interval_s) {
    monitor_.start();
  }
  void stop() override { monitor_.stop(); }
  std::vector<HealthMonitor::Down> down_now() const override { return monitor_.down_now(); }
  bool was_down(const std::string& url, double from, double to) const override {
    return monitor_.was_down(url, from, to);
  }
  double down_seconds(const std::string& url, double from, double to) const override {
    return monitor_.down_seconds(url, from, to);
  }

 private:
  HealthMonitor monitor_;
};

class ProxyEndpoint : public ModelEndpoint {
 public:
  ProxyEndpoint(const ProxyOptions& options, UsageSink* sink) : proxy_(options, sink) {}
  Result<std::uint16_t> start() override { return proxy_.start(0); }
  std::uint16_t port() const override { return proxy_.port(); }
  void set_episode(const std::string& episode, double budget) override {
    proxy_.set_episode(episode, budget);
  }
  bool budget_exhausted(const std::string& episode) const override {
    return proxy_.budget_exhausted(episode);
  }
  bool upstream_gave_up(const std::string& episode) const override {
    return proxy_.upstream_gave_up(episode);
  }
  std::optional<double> upstream_down_since() const override {
    return proxy_.upstream_down_since();
  }
  double upstream_down_seconds(double from, double to) const override {
    return proxy_.upstream_down_seconds(from, to);
  }
  std::string upstream_url() const override { return proxy_.upstream_url(); }

 private:
  MeteringProxy proxy_;
};

}  // namespace

double RealDaemonClock::now_s() {
  return std::chrono::duration<double>(Steady::now().time_since_epoch()).count();
}

double RealDaemonClock::unix_s() { return unix_now(); }

void RealDaemonClock::sleep(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

Result<std::unique_ptr<AgentRun>> RealAgentLauncher::start(const AgentSpawn& spawn) {
  auto p = AgentProcess::start(spawn);
  if (!p) return p.error();
  return std::unique_ptr<AgentRun>(std::make_unique<RealAgentRun>(std::move(*p)));
}

int RealAgentLauncher::sweep(const std::string& entry) { return kill_processes_with_env(entry); }

TaskReply RealJudgeGateway::task(const TaskRequest& request) {
  JudgeClient client = transport_ ? JudgeClient(request.settings, transport_)
                                  : JudgeClient(request.settings, HeaderTransport{});
  client.set_outage_observer(request.observer);
  TaskReply reply;
  reply.task = client.task(request.kernel, request.language, "", "", request.cancel);
  reply.failure = reply.task ? Failure::kNone : client.last_failure();
  return reply;
}

std::optional<nlohmann::json> RealJudgeGateway::health(const std::string& url) {
  std::string base = url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  auto r =
      http_request("GET", base + "/health", "", {}, OutagePolicy{}.probe_timeout_s, HttpOptions{});
  if (!r || r->status != 200) return std::nullopt;
  auto j = nlohmann::json::parse(r->body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

std::unique_ptr<JudgeHealthWatch> RealJudgeGateway::watch(const std::vector<std::string>& urls,
                                                          double interval_s) {
  return std::make_unique<RealHealthWatch>(urls, interval_s);
}

std::unique_ptr<ModelEndpoint> RealModelEndpoints::open(const ProxyOptions& options,
                                                        UsageSink* sink) {
  return std::make_unique<ProxyEndpoint>(options, sink);
}

}  // namespace hpcab::harness
