#include "judge/grade/session.h"

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/stats.h"
#include "judge/grade/clock_audit.h"

namespace hpcab::judge {

namespace proto = runner_protocol;

namespace {

// One watch (Clock::begin_watch) for the scope: closed on every return path.
class Watch {
 public:
  explicit Watch(Clock* clock) : clock_(clock) { clock_->begin_watch(); }
  ~Watch() { clock_->end_watch(); }
  Watch(const Watch&) = delete;
  Watch& operator=(const Watch&) = delete;

 private:
  Clock* clock_;
};

}  // namespace

RunnerSession::RunnerSession(std::unique_ptr<RunnerChannel> channel, Clock* clock, std::string role,
                             bool candidate, SessionLimits limits)
    : channel_(std::move(channel)),
      clock_(clock),
      role_(std::move(role)),
      candidate_(candidate),
      limits_(limits) {}

RunFailure RunnerSession::attributed(RunFailure f) const {
  if (candidate_ || f.harness) return f;
  // The baseline and the oracle are the judge's own code: whatever went wrong there is the
  // judge's fault, never the candidate's.
  RunFailure j =
      judge_fault(Resource::kInternal,
                  "judge fault (" + std::string(verdict_name(f.verdict)) + "): " + f.detail);
  j.timed_out = f.timed_out;
  return j;
}

// No reply came: a timeout, or the process ended. How it ended decides the verdict.
RunFailure RunnerSession::classify_missing(const Error& why) {
  RunFailure f;
  if (why.code == Errc::kTimeout) {
    channel_->kill_now();
    f.verdict = Verdict::kTimeout;
    f.timed_out = true;
    f.detail =
        role_ + ": a call did not finish within " + std::to_string(limits_.call_timeout_s) + " s";
    return attributed(f);
  }
  ProcessResult r = channel_->finish(5);
  // bwrap reports a child killed by signal S as exit status 128 + S.
  if (r.term_signal == 0 && r.exit_code > 128 && r.exit_code < 128 + 65) {
    r.term_signal = r.exit_code - 128;
  }
  if (proto::allocation_failed(r.output)) {
    f.verdict = Verdict::kMemory;
    f.detail = role_ + ": memory limit exceeded (" + r.describe() + ")";
  } else if (r.term_signal == SIGKILL) {
    f.verdict = Verdict::kCrash;
    f.detail = role_ + ": killed by signal 9 from outside the judge (out of memory?)";
  } else if (r.term_signal == SIGXCPU) {
    f.verdict = Verdict::kTimeout;
    f.timed_out = true;
    f.detail = role_ + ": CPU time limit exceeded";
  } else if (r.term_signal != 0) {
    f.verdict = Verdict::kCrash;
    f.detail = role_ + ": " + r.describe();
  } else {
    f.verdict = Verdict::kCrash;
    f.detail = role_ + ": the process ended unexpectedly (" + r.describe() + ")";
  }
  std::string t = tail(r.output, 1500);
  if (!t.empty()) f.detail += "; output: " + t;
  return attributed(f);
}

// The runner gave up with "error <fault> <message>". The fault code says whose machinery it
// was; an io fault is believed only when the judge confirms it on the filesystem, since the
// kernel can write a well-formed error line to fd 3 itself.
RunFailure RunnerSession::classify_error_reply(const proto::Reply& reply) {
  channel_->finish(5);
  switch (reply.fault) {
    case proto::Fault::kLoad: {
      RunFailure f;
      f.verdict = Verdict::kBuildError;
      f.detail = role_ + ": " + reply.message;
      return attributed(f);
    }
    case proto::Fault::kIo: {
      if (auto confirmed = channel_->confirm_io_fault()) {
        return judge_fault(Resource::kScratch, "judge fault: the scratch filesystem refused the " +
                                                   role_ + "'s outputs (" + *confirmed +
                                                   "): " + reply.message);
      }
      RunFailure f;
      f.verdict = Verdict::kRejected;
      f.detail = role_ +
                 ": reported a filesystem failure the judge cannot confirm (the reply channel "
                 "belongs to the judge's protocol)";
      return attributed(f);
    }
    case proto::Fault::kSetup:
    case proto::Fault::kCommand:
      break;
  }
  return judge_fault(Resource::kRunner,
                     "judge fault: the runner failed (" + role_ + "): " + reply.message);
}

RunFailure RunnerSession::reject(const std::string& why) {
  channel_->kill_now();
  RunFailure f;
  f.verdict = Verdict::kRejected;
  f.detail = role_ + ": " + why;
  return attributed(f);
}

MaybeFailure RunnerSession::expect(Kind kind, proto::Reply* out, double timeout_s) {
  auto line = channel_->receive(timeout_s);
  if (!line) {
    if (line.error().code == Errc::kProtocol) {
      return reject("an over-long line on the runner's reply channel");
    }
    return classify_missing(line.error());
  }
  proto::Reply reply = proto::parse_reply(*line);
  if (reply.kind == Kind::kError) return classify_error_reply(reply);
  if (reply.kind != kind) {
    // Only the runner's own code writes replies in turn; anything else on fd 3 was written
    // by the kernel (a forged "done", a fake verdict) and is a protocol violation.
    return reject("unexpected reply '" + line->substr(0, 80) +
                  "' on the runner's reply channel (fd 3 belongs to the judge's protocol)");
  }
  if (out) *out = reply;
  return std::nullopt;
}

MaybeFailure RunnerSession::command(const std::string& cmd, Kind kind, proto::Reply* reply,
                                    double timeout_s) {
  if (auto st = channel_->send(cmd); !st) return classify_missing(st.error());
  return expect(kind, reply, timeout_s);
}

MaybeFailure RunnerSession::hello(double hello_timeout_s) {
  // Nothing of the submission runs before the runner's "boot" (the runner writes it before
  // reading its manifest), so a process that ends or stalls before it is the sandbox's own
  // failure, whoever's side it was: never the candidate's crash.
  auto first = channel_->receive(hello_timeout_s);
  if (!first || proto::parse_reply(*first).kind != Kind::kBoot) {
    std::string why;
    if (first) {
      channel_->kill_now();
      why = "a first line other than boot: '" + first->substr(0, 80) + "'";
    } else {
      ProcessResult r =
          first.error().code == Errc::kTimeout ? channel_->kill_now() : channel_->finish(5);
      why = r.describe();
      std::string t = tail(r.output, 1500);
      if (!t.empty()) why += "; output: " + t;
    }
    RunFailure f = judge_fault(
        Resource::kSandbox, "judge fault: the " + role_ + " sandbox did not start (" + why + ")");
    f.before_boot = true;
    return f;
  }
  // The layout comes before anything of the submission is loaded, so whatever is wrong with
  // it is the runner's own fault, whichever side it serves.
  proto::Reply layout;
  if (auto f = expect(Kind::kLayout, &layout, hello_timeout_s)) return f;
  if (auto st = channel_->set_layout(layout.slots); !st) {
    channel_->kill_now();
    return judge_fault(Resource::kRunner, "judge fault: the " + role_ +
                                              " runner's output layout: " + st.error().message);
  }
  if (auto f = expect(Kind::kHello, nullptr, hello_timeout_s)) return f;
  auto extra = channel_->extra_processes();
  if (!extra) {
    return judge_fault(Resource::kSandbox, "judge fault: " + role_ + ": " + extra.error().message);
  }
  if (!extra->empty()) return reject("started " + *extra + " while the library was loaded");
  return std::nullopt;
}

MaybeFailure RunnerSession::start(double hello_timeout_s) {
  if (auto f = hello(hello_timeout_s)) return f;
  return calibrate();
}

MaybeFailure RunnerSession::quiesce() {
  if (auto f = wait_idle(clock_->monotonic_ns())) return f;
  return settle_threads();
}

// The empty round trip the judge's view of a call includes: "ping" until the runner is seen
// idle again, exactly as for a call. The median of a few, so one scheduling hiccup (either
// way) does not shift every call's audit.
MaybeFailure RunnerSession::calibrate() {
  std::vector<double> rtts;
  for (int i = 0; i < 7; ++i) {
    Watch watch(clock_);  // as for a call, so the round trip subtracted matches the views
    const int64_t t0 = clock_->monotonic_ns();
    if (auto f = command(proto::ping_command(), Kind::kPong, nullptr, limits_.call_timeout_s)) {
      return f;
    }
    if (auto f = wait_idle(t0)) return f;
    rtts.push_back(static_cast<double>(clock_->monotonic_ns() - t0));
  }
  rtt_ns_ = static_cast<int64_t>(median(rtts));
  return std::nullopt;
}

MaybeFailure RunnerSession::prep(uint64_t seed, const std::string& dist, double scale) {
  return command(proto::prep_command(seed, dist, scale), Kind::kReady, nullptr,
                 limits_.call_timeout_s);
}

// Two clocks time each call. The runner's CLOCK_MONOTONIC bracket is precise (no pipe latency)
// but lives in the candidate's process, where a kernel can subvert it. The judge's view runs
// from sending "go" until the runner is seen blocked on its next command (which nothing inside
// the sandbox can forge: a kernel that writes a fake "done" early and keeps computing is still
// running), minus the median empty round trip. Per call, the overshoot is how far the judge's
// view exceeds the runner's report plus an allowance (slack + fraction of the view + the
// copy-out of the outputs); see judge/grade/clock_audit.h for how it shifts the recorded times.
MaybeFailure RunnerSession::go(double* ns) {
  proto::Reply reply;
  int64_t outer = 0;
  {
    Watch watch(clock_);
    const int64_t t0 = clock_->monotonic_ns();
    if (auto f = command(proto::go_command(), Kind::kDone, &reply, limits_.call_timeout_s)) {
      return f;
    }
    if (auto f = wait_idle(t0)) return f;
    outer = clock_->monotonic_ns() - t0;
  }
  if (reply.ns <= 0) return reject("reported a call of " + std::to_string(reply.ns) + " ns");
  const double view = static_cast<double>(std::max<int64_t>(outer - rtt_ns_, 0));
  const double allowed = limits_.audit_slack_ns + limits_.audit_fraction * view + limits_.copy_ns;
  judge_seen_ns_.push_back(view);
  overshoot_ns_.push_back(view - allowed - static_cast<double>(reply.ns));
  reported_ns_.push_back(static_cast<double>(reply.ns));
  *ns = static_cast<double>(reply.ns);
  if (candidate_) {
    auto extra = channel_->extra_processes();
    if (!extra) {
      return judge_fault(Resource::kSandbox,
                         "judge fault: " + role_ + ": " + extra.error().message);
    }
    if (!extra->empty()) return reject("left " + *extra + " running after the call returned");
  }
  return std::nullopt;
}

double RunnerSession::audit_shift_ns(std::span<const double> noise) const {
  // Warm-up calls are in overshoot_ns too; they only make the medians more representative.
  return candidate_shift_ns(overshoot_ns_, noise, limits_.audit_alpha);
}

// Waits until the runner blocks reading stdin (its idle state between commands). Never spins:
// the runner may share this thread's CPU, and a busy judge would delay the very state change it
// waits for (and bill the delay to the candidate).
MaybeFailure RunnerSession::wait_idle(int64_t since_ns) {
  for (int i = 0;; ++i) {
    if (channel_->idle()) return std::nullopt;
    if (i % 64 == 63) {
      if (!channel_->alive()) return std::nullopt;  // gone: the next command says how
      if (static_cast<double>(clock_->monotonic_ns() - since_ns) > limits_.call_timeout_s * 1e9) {
        return classify_missing(Error{"timeout", Errc::kTimeout});
      }
    }
    clock_->pause_us(i < 8 ? 0 : 20);
  }
}

// Threads of the candidate between calls (SPEC §5.7: no work may escape the clock). After each
// call every thread but the runner's main one must go to sleep (an OpenMP pool spins briefly,
// then waits on a futex); their CPU time is then noted, and by the start of the next call
// (after the next draw was generated, single-threaded, in this runner) they may have used at
// most outside_cpu_ns more. A helper that precomputes the next answer while the draw is
// written, or a timer signal doing the same, shows up here.
//
// "Within settle_s" counts the CPU time the busy threads were given, not the wall time: on an
// oversubscribed host a pool thread is runnable (state R) long after it would have slept,
// waiting for a CPU, doing nothing (a wall-clock rule rejected honest OpenMP code, and turned
// the baseline's OpenBLAS pool into judge errors, under load). A thread that really keeps
// working gets CPU and is rejected once it used settle_s of it, or after settle_wall_s of
// wall time whatever it got, so the wait stays bounded. The trusted sides are waited for the
// same way but never failed: their settling only keeps their pools quiet during the
// candidate's calls.
MaybeFailure RunnerSession::settle_threads() {
  const int64_t t0 = clock_->monotonic_ns();
  std::map<int, int64_t> cpu_at_start;
  for (int i = 0;; ++i) {
    auto threads = channel_->threads();
    bool busy = false, cpu_known = true;
    int64_t used = 0;
    // 'T'/'t': a thread not yet continued after SIGCONT would run (and be counted) right after.
    for (const auto& t : threads) {
      busy = busy || t.state == 'R' || t.state == 'D' || t.state == 'T' || t.state == 't';
      if (t.cpu_ns < 0) {
        cpu_known = false;
        continue;
      }
      auto [it, fresh] = cpu_at_start.try_emplace(t.tid, t.cpu_ns);
      if (!fresh) used += t.cpu_ns - it->second;
    }
    if (!busy) {
      thread_cpu_at_rest_.clear();
      for (const auto& t : threads) thread_cpu_at_rest_[t.tid] = t.cpu_ns;
      have_rest_ = true;
      return std::nullopt;
    }
    const double wall_s = static_cast<double>(clock_->monotonic_ns() - t0) * 1e-9;
    // Without schedstats there is no CPU time to count: the wall time stands in for it.
    const double cpu_s = cpu_known ? static_cast<double>(used) * 1e-9 : wall_s;
    if (cpu_s > limits_.settle_s || wall_s > limits_.settle_wall_s) {
      if (!candidate_) {
        have_rest_ = false;
        return std::nullopt;
      }
      char what[96];
      std::snprintf(what, sizeof what, "%.3f s of CPU in %.3f s", cpu_s, wall_s);
      return reject("a thread (" + std::to_string(threads.size()) +
                    " besides the main one) kept running after the call returned (" + what +
                    "; allowed " + std::to_string(limits_.settle_s) + " s of CPU within " +
                    std::to_string(limits_.settle_wall_s) +
                    " s): work left running escapes the clock");
    }
    clock_->pause_us(i < 20 ? 100 : 1000);
  }
}

MaybeFailure RunnerSession::check_outside_cpu() {
  if (!have_rest_) return std::nullopt;
  int64_t used = 0;
  for (const auto& t : channel_->threads()) {
    if (t.cpu_ns < 0) return std::nullopt;  // no schedstats on this kernel: nothing to compare
    auto it = thread_cpu_at_rest_.find(t.tid);
    used += t.cpu_ns - (it == thread_cpu_at_rest_.end() ? 0 : it->second);
  }
  if (static_cast<double>(used) > limits_.outside_cpu_ns) {
    return reject("threads besides the main one used " + std::to_string(used / 1000) +
                  " us of CPU between calls (allowed " +
                  std::to_string(static_cast<int64_t>(limits_.outside_cpu_ns / 1000)) +
                  " us): work outside the clock");
  }
  return std::nullopt;
}

// Outputs in memory are read right after the call, before "post": the runner's copy-out is
// then as fresh as it can be (a helper thread writing it later has had only the round trip),
// and no later than the runner's own save would have written it.
MaybeFailure RunnerSession::post(bool save, const std::string& tag) {
  const bool in_memory = save && memory_outputs_ && channel_->can_capture();
  if (in_memory) channel_->capture(tag);
  proto::Reply reply;
  if (auto f = command(proto::post_command(save && !in_memory, tag), Kind::kPosted, &reply,
                       limits_.call_timeout_s)) {
    return f;
  }
  switch (reply.problem) {
    case proto::PostProblem::kNone:
      return std::nullopt;
    case proto::PostProblem::kConst:
      return reject("wrote through a const pointer: input '" + reply.name + "' changed at index " +
                    reply.index);
    case proto::PostProblem::kGuard: {
      const bool before = !reply.index.empty() && reply.index[0] == '-';
      return reject("wrote outside array '" + reply.name + "': guard zone damaged " +
                    (before ? reply.index.substr(1) + " byte(s) before its start"
                            : "at byte " + reply.index + " past its end"));
    }
    case proto::PostProblem::kLate:
      return reject("output '" + reply.name + "' changed after the call returned (element " +
                    reply.index + "): work left running after the return escapes the clock");
    case proto::PostProblem::kRunning:
      return reject("device work was still running after the call returned (" + reply.name +
                    "): kernels left running escape the clock");
  }
  return std::nullopt;
}

void RunnerSession::request_quit() {
  if (quit_sent_ || finished_) return;
  quit_sent_ = true;
  (void)channel_->send(proto::quit_command());
  channel_->resume();
}

void RunnerSession::finish() {
  if (finished_) return;
  request_quit();
  finished_ = true;
  channel_->finish(5);
}

}  // namespace hpcab::judge
