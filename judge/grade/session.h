// Stage: one runner session. Drives one hpcab-runner (candidate, baseline or oracle) call by
// call over a RunnerChannel, times each call with two clocks (the runner's report and the
// judge's own view), and turns anything unexpected into a RunFailure: whose fault it is
// (candidate or judge) is decided here, by the runner's fault code and the judge's own checks,
// never by message text.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "judge/grade/effects.h"
#include "judge/grade/types.h"
#include "judge/runner/protocol.h"

namespace hpcab::judge {

// The per-session knobs (from JudgeConfig).
struct SessionLimits {
  double call_timeout_s = 60;
  double audit_slack_ns = 500e3, audit_fraction = 0.1, audit_alpha = 0.01;
  double copy_ns = 0;          // the allowance for the copy-out of the outputs
  double settle_s = 0.5;       // CPU the other threads may use before they sleep
  double settle_wall_s = 2.0;  // wall time they may take in any case
  double outside_cpu_ns = 250e3;
};

class RunnerSession {
 public:
  RunnerSession(std::unique_ptr<RunnerChannel> channel, Clock* clock, std::string role,
                bool candidate, SessionLimits limits);

  // Waits for hello and checks nothing else was started by the library's constructors.
  MaybeFailure hello(double hello_timeout_s);
  // Measures the empty round trip (the judge's view of every later call subtracts it). Only
  // once nothing else of the grade competes for the CPU: the sessions of one configuration
  // start together (config_run.cc), so the others must have said hello and be quiet.
  MaybeFailure calibrate();
  // hello, then calibrate.
  MaybeFailure start(double hello_timeout_s);
  // Waits until this (trusted) runner is idle and its threads asleep, so that it cannot
  // compete with another session's calibration. Its failure is the judge's (attributed).
  MaybeFailure quiesce();
  // prep: a fresh draw from `seed`.
  MaybeFailure prep(uint64_t seed, const std::string& dist, double scale);
  // go: one call; `ns` is the runner's report. Also audits the judge's view and, for the
  // candidate, that nothing is left running.
  MaybeFailure go(double* ns);
  // post: the runner's checks after the call; `save` keeps the outputs under `tag`: read into
  // the judge's memory when memory outputs are allowed and the channel can capture them,
  // otherwise saved by the runner.
  MaybeFailure post(bool save, const std::string& tag);
  // Whether saved outputs may be kept in the judge's memory (docs/grading.md, "Outputs in
  // memory"). Only where every call of the configuration is checked: a read made only after
  // the checked calls would show the candidate which ones they are (the gap between calls).
  void allow_memory_outputs(bool on) { memory_outputs_ = on; }
  // After a call every thread but the main one must go to sleep within settle_s of CPU time
  // (and settle_wall_s of wall time). Only the candidate is held to it: a trusted side still
  // busy then is waited for no longer (best effort, nobody's failure).
  MaybeFailure settle_threads();
  // Before a call: CPU used by other threads since they settled must stay under the bound.
  MaybeFailure check_outside_cpu();
  void pause() { channel_->pause(); }
  void resume() { channel_->resume(); }
  void set_copy_ns(double ns) { limits_.copy_ns = ns; }
  const SessionLimits& limits() const { return limits_; }
  // Asks the runner to quit and lets it run (a paused one too), without waiting: the sessions
  // of a configuration then exit side by side. Idempotent; finish() still waits.
  void request_quit();
  void finish();

  void discard_outputs() { channel_->discard_outputs(); }
  SchedTotals sched() { return channel_->sched(); }
  pid_t runner_pid() const { return channel_->runner_pid(); }
  Result<std::map<std::string, NdArray>> outputs(const std::string& tag) {
    return channel_->outputs(tag);
  }
  void recycle(std::map<std::string, NdArray>&& outputs) { channel_->recycle(std::move(outputs)); }
  const std::string& role() const { return role_; }
  bool candidate() const { return candidate_; }

  // What the audit's rule (judge/grade/clock_audit.h) adds to each of this session's timed calls,
  // against the honest side's overshoot `noise` (empty: none ran).
  double audit_shift_ns(std::span<const double> noise) const;
  const std::vector<double>& judge_seen_ns() const { return judge_seen_ns_; }
  const std::vector<double>& overshoot_ns() const { return overshoot_ns_; }
  const std::vector<double>& reported_ns() const { return reported_ns_; }

 private:
  RunFailure classify_missing(const Error& why);
  RunFailure classify_error_reply(const runner_protocol::Reply& reply);
  RunFailure reject(const std::string& why);
  using Kind = runner_protocol::Reply::Kind;
  MaybeFailure expect(Kind kind, runner_protocol::Reply* reply, double timeout_s);
  MaybeFailure command(const std::string& cmd, Kind kind, runner_protocol::Reply* reply,
                       double timeout_s);
  MaybeFailure wait_idle(int64_t since_ns);
  // A failure of a trusted side (baseline, oracle) is the judge's own.
  RunFailure attributed(RunFailure f) const;

  std::unique_ptr<RunnerChannel> channel_;
  Clock* clock_;
  std::string role_;
  bool candidate_;
  SessionLimits limits_;
  int64_t rtt_ns_ = 0;
  std::vector<double> judge_seen_ns_;  // the judge's view of each call
  std::vector<double> overshoot_ns_;   // view - allowance - runner's report (> 0: a lie)
  std::vector<double> reported_ns_;    // the runner's own reports, as they came
  std::map<pid_t, int64_t> thread_cpu_at_rest_;
  bool have_rest_ = false;
  bool memory_outputs_ = false;
  bool quit_sent_ = false;
  bool finished_ = false;
};

}  // namespace hpcab::judge
