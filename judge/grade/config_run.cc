#include "judge/grade/config_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/compare.h"
#include "common/stats.h"
#include "judge/grade/baseline_choice.h"
#include "judge/grade/clock_audit.h"
#include "judge/grade/session.h"
#include "judge/sandbox/affinity.h"

namespace hpcab::judge {

std::string sizes_json(const SymbolTable& sizes) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : sizes) j[k] = v;
  return j.dump();
}

Result<int64_t> workspace_size(const Manifest& m, const std::optional<std::string>& expr,
                               const SymbolTable& sizes) {
  if (!expr) return int64_t{0};
  auto e = Expr::parse(*expr);
  if (!e) return e.error();
  auto v = e->eval(m.symbols(sizes));
  if (!v) return v.error();
  if (*v < 0 || *v > (int64_t{1} << 40)) return Error{"workspace_bytes out of range"};
  return *v;
}

namespace {

class PhaseTimer {
 public:
  PhaseTimer(RunContext& ctx, std::string name)
      : ctx_(ctx), name_(std::move(name)), t0_(ctx.clock->monotonic_ns()) {}
  ~PhaseTimer() {
    ctx_.phase_s[name_] += static_cast<double>(ctx_.clock->monotonic_ns() - t0_) * 1e-9;
  }

 private:
  RunContext& ctx_;
  std::string name_;
  int64_t t0_;
};

// A launch failure is the judge's machinery: which resource, from the error's code.
RunFailure launch_fault(const std::string& role, const Error& e) {
  Resource r = Resource::kSandbox;
  if (e.code == Errc::kNoSpace || e.code == Errc::kReadOnly) r = Resource::kScratch;
  if (e.code == Errc::kNotFound) r = Resource::kRunner;
  return judge_fault(r, std::string("judge fault: cannot start the ") + role + " runner (" +
                            resource_name(r) + "): " + e.message);
}

// Spawns one side's runner; `out` holds the session once launched (it has not said hello yet).
MaybeFailure launch_session(RunContext& ctx, const std::string& role, bool candidate,
                            const std::string& lib, const SymbolTable& sizes, int64_t workspace,
                            int threads, double call_timeout_s, int draw_fd,
                            std::unique_ptr<RunnerSession>& out) {
  RunnerSpec spec;
  spec.manifest = &ctx.m;
  spec.precision = ctx.precision;
  spec.role = role;
  spec.candidate = candidate;
  spec.library = lib;
  spec.sizes = sizes;
  spec.workspace_bytes = workspace;
  spec.cpus = threads == 1 ? std::vector<int>{ctx.cpus.front()} : ctx.cpus;
  spec.threads = threads;
  spec.work_dir = ctx.work_dir;
  spec.serial = ctx.sessions++;
  spec.draw_fd = draw_fd;
  // Library name, not role: a baseline measured alone runs in the candidate's role.
  if (lib == ctx.cand_lib && !ctx.cand_gpu_runtime.empty()) {
    spec.gpu_runtime = ctx.cand_gpu_runtime;
    spec.residency = ctx.cand_residency;
  }
  auto channel = ctx.launcher->launch(spec);
  if (!channel) return launch_fault(role, channel.error());
  const JudgeConfig& cfg = ctx.config;
  SessionLimits limits;
  limits.call_timeout_s = call_timeout_s;
  limits.audit_slack_ns = cfg.clock_audit_slack_ns;
  limits.audit_fraction = cfg.clock_audit_fraction;
  limits.audit_alpha = cfg.clock_audit_alpha;
  limits.settle_s = cfg.thread_settle_s;
  limits.settle_wall_s = cfg.thread_settle_wall_s;
  limits.outside_cpu_ns = cfg.outside_cpu_ns;
  out = std::make_unique<RunnerSession>(std::move(*channel), ctx.clock, role, candidate, limits);
  return std::nullopt;
}

// Which calls are checked: every one when outputs are small; otherwise the last and three
// chosen with a CSPRNG. The choice stays in the judge: the runner saves outputs on every call
// (post 1), so nothing the candidate can observe depends on it.
std::vector<bool> checked_calls(const RunContext& ctx, const ConfigPlan& plan, uint64_t out_bytes) {
  const std::size_t n = plan.seeds.size();
  std::vector<bool> checked(n, true);
  if (!plan.check || !plan.timed || out_bytes <= ctx.config.check_all_bytes || n <= 4) {
    return checked;
  }
  std::fill(checked.begin(), checked.end(), false);
  checked[n - 1] = true;
  // Three of the first n - 1 calls by a partial Fisher-Yates shuffle: bounded work whatever
  // the entropy source returns.
  std::vector<std::size_t> order(n - 1);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t i = 0; i < 3; ++i) {
    uint32_t r = 0;
    ctx.entropy->fill(&r, sizeof r);
    std::swap(order[i], order[i + r % (order.size() - i)]);
    checked[order[i]] = true;
  }
  return checked;
}

// Largest |a - b| over real outputs against 30 * eps * max|a| (SPEC §5.6 determinism).
std::string determinism_problem(const std::map<std::string, NdArray>& a,
                                const std::map<std::string, NdArray>& b, Precision p) {
  for (const auto& [name, x] : a) {
    auto it = b.find(name);
    if (it == b.end()) return "output '" + name + "' missing from the second run";
    const NdArray& y = it->second;
    if (!dtype_is_float(x.dtype())) {
      if (!x.bytes_equal(y)) return "output '" + name + "' differs between two identical runs";
      continue;
    }
    double maxabs = 0, maxdiff = 0;
    for (int64_t i = 0; i < x.size(); ++i) {
      double u = x.get(i), v = y.get(i);
      if (std::isnan(u) && std::isnan(v)) continue;
      if (std::isfinite(u)) maxabs = std::max(maxabs, std::fabs(u));
      double d = std::fabs(u - v);
      if (!(d <= maxdiff)) maxdiff = std::isnan(d) ? INFINITY : std::max(maxdiff, d);
    }
    double bound = 30 * precision_epsilon(p) * maxabs;
    if (maxdiff > bound) {
      return "nondeterministic: output '" + name + "' differs by " + std::to_string(maxdiff) +
             " between two runs on the same draw (allowed " + std::to_string(bound) + ")";
    }
  }
  return "";
}

// The sessions of one configuration and the call protocol they share.
struct Sides {
  RunContext& ctx;
  const ConfigPlan& plan;
  std::unique_ptr<RunnerSession> cand, base, oracle;
  std::unique_ptr<SharedDraw> draw;  // nullptr: each runner generates its own draws

  // The runners end with the configuration; their saved outputs, read by the comparison
  // before this runs, go with them (RunnerChannel::discard_outputs).
  ~Sides() {
    stop();
    for (auto* s : {cand.get(), base.get(), oracle.get()}) {
      if (s) s->discard_outputs();
    }
  }

  // Every session told to quit first, then each waited for: their exits overlap.
  void stop() {
    for (auto* s : {cand.get(), base.get(), oracle.get()}) {
      if (s) s->request_quit();
    }
    for (auto* s : {cand.get(), base.get(), oracle.get()}) {
      if (s) s->finish();
    }
  }

  // One call on `s`: the draw, the call, the runner's checks, the threads settled. Saving is
  // decided per call only after it returned (post), so which calls are checked is never
  // visible to the candidate before it runs.
  MaybeFailure call(RunnerSession& s, uint64_t seed, double* ns, bool save,
                    const std::string& tag) {
    if (draw) {
      // Written while every runner is stopped (or idle before its first call): the draw a
      // call sees never changes under another side's call.
      PhaseTimer inputs(ctx, "inputs");
      DrawSpec spec;
      spec.seed = seed;
      spec.distribution = distribution_named(plan.dist);
      spec.scale = plan.scale;
      if (auto st = draw->fill(spec); !st) {
        return judge_fault(Resource::kSandbox,
                           "judge fault: the shared draw: " + st.error().message);
      }
    }
    s.resume();
    if (s.candidate()) {
      // SIGCONT wakes every thread of the paused runner, and an honest OpenMP pool then burns
      // CPU going back to sleep (measured: up to 150 us at load 7 with the stop/continue cycle,
      // none without it; 0.7-2.8 ms on an oversubscribed host, which rejected honest autopar
      // code). So the threads are settled again and their CPU noted only now: the stop itself
      // let nothing run, and the budget still covers all of the next draw's preparation.
      PhaseTimer settling(ctx, "settle");
      if (auto f = s.settle_threads()) return f;
    }
    {
      PhaseTimer inputs(ctx, "inputs");
      if (auto f = s.prep(seed, plan.dist, plan.scale)) return f;
    }
    if (s.candidate()) {
      if (auto f = s.check_outside_cpu()) return f;
    }
    double t = 0;
    {
      PhaseTimer run(ctx, s.candidate()          ? "candidate"
                          : s.role() == "oracle" ? "oracle"
                                                 : "baseline");
      CallHooks* hooks = s.candidate() ? ctx.hooks : nullptr;
      if (hooks) hooks->before_call();
      MaybeFailure went = s.go(&t);
      if (hooks) hooks->after_call();
      if (went) return went;
      if (auto f = s.post(save, tag)) return f;
    }
    {
      // Every side, not only the candidate: each call then starts with its thread pool asleep,
      // so neither side enters a call with threads still spinning from the last one.
      PhaseTimer settling(ctx, "settle");
      if (auto f = s.settle_threads()) return f;
    }
    s.pause();
    if (ns) *ns = t;
    return std::nullopt;
  }

  // The sessions of a configuration start together: a launch returns once its sandbox is
  // spawned, so the sides' start-up (bubblewrap's namespaces, exec, loading the library,
  // allocating the draw: ~15 ms each on a 2-CPU VM, ~25 per /submit) overlaps instead of
  // running one after another. What stays as when each side started only after the one before
  // it had succeeded:
  // - The outcome. Sides are examined in role order (candidate, baseline, oracle) and the first
  //   failure in that order is the configuration's: a candidate whose library does not load is
  //   build_error even if the baseline's launch failed too, and a trusted side's failure is the
  //   judge's (launch_fault; RunnerSession attributes the rest), never the candidate's.
  // - The calibrations. Each empty round trip is measured only after every side said hello,
  //   the candidate's with the trusted sides idle and their threads asleep, so no start-up work
  //   of theirs inflates it (an inflated candidate round trip would loosen its clock audit).
  // - The pause. Baseline and oracle are stopped right after their own calibration, before any
  //   call of the configuration, as before.
  MaybeFailure start(int64_t workspace) {
    PhaseTimer starting(ctx, "start runners");
    const int slot_threads = static_cast<int>(ctx.cpus.size());
    const int cand_threads = plan.cand_threads > 0 ? plan.cand_threads : slot_threads;
    const double call_s = ctx.config.call_timeout_s;
    const double reference_s =
        plan.reference_limit_s > 0 ? std::min(plan.reference_limit_s, call_s) : call_s;
    struct Side {
      std::unique_ptr<RunnerSession>* session;
      std::function<MaybeFailure()> launch;  // (re)launches the side into *session
      MaybeFailure launched;
    };
    auto shared = ctx.launcher->shared_draw(ctx.m, ctx.precision, plan.sizes, ctx.cpus);
    if (!shared) {
      return judge_fault(Resource::kSandbox,
                         "judge fault: cannot make the shared draw: " + shared.error().message);
    }
    draw = std::move(*shared);
    const int draw_fd = draw ? draw->fd() : -1;
    std::vector<Side> sides;
    auto add = [&sides](std::unique_ptr<RunnerSession>* session,
                        std::function<MaybeFailure()> launch) {
      MaybeFailure f = launch();
      sides.push_back({session, std::move(launch), std::move(f)});
    };
    add(&cand, [&] {
      return launch_session(ctx, "candidate", true, ctx.cand_lib, plan.sizes, workspace,
                            cand_threads, call_s, draw_fd, cand);
    });
    // A side after a failed launch is not launched at all: the failure, or an earlier side's,
    // is the outcome whatever the later sides would do.
    auto launched = [&sides] { return !sides.back().launched; };
    if (plan.paired && launched()) {
      const int threads = sequential_baseline(ctx.base_name) ? 1 : slot_threads;
      add(&base, [&, threads] {
        return launch_session(ctx, "baseline " + ctx.base_name, false, ctx.base_lib, plan.sizes, 0,
                              threads, call_s, draw_fd, base);
      });
    }
    if (plan.check && !(plan.paired && base_is_oracle()) && launched()) {
      add(&oracle, [&] {
        return launch_session(ctx, "oracle", false, ctx.oracle_lib, plan.sizes, 0, 1, reference_s,
                              draw_fd, oracle);
      });
    }
    // Startup includes loading the library (its constructors run) and allocating the draw.
    // A sandbox that died before its runner's first line (bubblewrap could not fork: the host,
    // or the sandbox uid's RLIMIT_NPROC shared with other grades, was short of processes) ran
    // nothing of anyone's: started again after a pause, up to sandbox_start_retries times.
    const double hello_timeout_s = ctx.config.call_timeout_s + 30;
    for (Side& s : sides) {
      for (int attempt = 0;; ++attempt) {
        if (s.launched) return s.launched;
        MaybeFailure f = (*s.session)->hello(hello_timeout_s);
        if (!f) break;
        if (!f->before_boot || attempt >= ctx.config.sandbox_start_retries) return f;
        (*s.session)->finish();
        ctx.clock->pause_us(100'000 * (attempt + 1));
        s.launched = s.launch();
      }
    }
    for (const Side& s : sides) {
      RunnerSession& r = **s.session;
      if (r.candidate()) {
        for (const Side& other : sides) {
          if ((*other.session)->candidate()) continue;
          if (auto f = (*other.session)->quiesce()) return f;
        }
      }
      if (auto f = r.calibrate()) return f;
      if (!r.candidate()) r.pause();
    }
    return std::nullopt;
  }

  // The credited baseline is the oracle's own build: its saved outputs are the reference.
  bool base_is_oracle() const { return ctx.base_name == ctx.oracle_name; }
  RunnerSession& reference() { return oracle ? *oracle : *base; }

  bool oracle_done = false;  // the oracle's checked calls ran already (reference_first)
  // Each call compared as soon as both sides ran it (the baseline is the oracle and every call
  // is checked, so the comparison's gap before the next call tells the candidate nothing): the
  // outputs are then released pair by pair instead of a configuration's piling up.
  bool pairwise = false;
  std::size_t compared = 0;  // calls compared so far (pairwise)
  bool settled = false;      // a pairwise comparison settled the outcome; no more calls run
};

// The oracle's checked calls (saved under the calls' tags).
MaybeFailure oracle_calls(Sides& sides, const std::vector<bool>& checked) {
  sides.oracle_done = true;
  for (std::size_t k = 0; k < sides.plan.seeds.size(); ++k) {
    if (!checked[k]) continue;
    if (auto f = sides.call(*sides.oracle, sides.plan.seeds[k], nullptr, true,
                            "call" + std::to_string(k))) {
      return f;
    }
  }
  return std::nullopt;
}

// ConfigPlan::reference_limit_s: the oracle computes the draw before the candidate runs at all,
// under its own call limit. Its timeout is no failure of anyone's: the sizes are beyond what
// this judge grades in good time, so the configuration is left out (out.too_slow). Any other
// failure of the oracle stays the judge's fault (RunnerSession attributes it).
MaybeFailure reference_first(Sides& sides, const std::vector<bool>& checked, ConfigOutcome& out) {
  MaybeFailure f = oracle_calls(sides, checked);
  if (f && f->timed_out) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", sides.oracle->limits().call_timeout_s);
    out.too_slow = std::string("the judge's reference did not finish one call within ") + limit +
                   " s (hidden_preset_reference_s) at these sizes on this machine: excluded "
                   "from the verdict";
    return std::nullopt;
  }
  return f;
}

// The reduction length at the configuration's sizes, when the kernel declares one.
std::optional<int64_t> reduction_length(const RunContext& ctx, const ConfigPlan& plan) {
  if (!ctx.m.reduction_length) return std::nullopt;
  auto l = ctx.m.reduction_length->eval(ctx.m.symbols(plan.sizes));
  if (!l) return std::nullopt;
  return *l;
}

// Call k's outputs against the reference's, in the judge (SPEC §5.6). Returns true once the
// configuration's outcome is settled (a failure, a mismatch, an ungradeable comparison); the
// compared outputs go back to their sessions (RunnerSession::recycle).
bool compare_call(Sides& sides, std::size_t k, ConfigOutcome& out) {
  RunContext& ctx = sides.ctx;
  const ConfigPlan& plan = sides.plan;
  PhaseTimer comparing(ctx, "compare");
  const std::string tag = "call" + std::to_string(k);
  auto want = sides.reference().outputs(tag);
  if (!want) {
    out.failure = judge_fault(Resource::kScratch, "oracle outputs: " + want.error().message);
    return true;
  }
  auto got = sides.cand->outputs(tag);
  if (!got) {
    out.failure =
        RunFailure{Verdict::kCrash, "candidate outputs unreadable: " + got.error().message};
    return true;
  }
  std::vector<NamedArray> e, a;
  for (auto& [name, arr] : *want) e.push_back({name, &arr});
  for (auto& [name, arr] : *got) a.push_back({name, &arr});
  auto cmp = compare_outputs(e, a, CompareOptions{ctx.precision, reduction_length(ctx, plan)});
  if (cmp.status == CompareResult::Status::kUngradeable) {
    out.ungradeable = "ungradeable: " + cmp.detail;
    return true;
  }
  out.max_rel_error = std::max(out.max_rel_error, cmp.max_rel_error);
  if (!cmp.passed()) {
    out.correct = false;
    out.failed_output = cmp.first_failure ? cmp.first_failure->output : "?";
    out.detail = plan.label + " " + sizes_json(plan.sizes) + ", call " + std::to_string(k) + ": " +
                 cmp.detail;
    return true;
  }
  if (k == 0 && plan.determinism) {
    auto again = sides.cand->outputs("again");
    if (!again) {
      out.failure =
          RunFailure{Verdict::kCrash, "candidate outputs unreadable: " + again.error().message};
      return true;
    }
    std::string problem = determinism_problem(*got, *again, ctx.precision);
    if (!problem.empty()) {
      out.correct = false;
      out.failed_output = "(nondeterministic)";
      out.detail = plan.label + ": " + problem;
      return true;
    }
  }
  sides.reference().recycle(std::move(*want));
  sides.cand->recycle(std::move(*got));
  return false;
}

// The checked calls not compared yet, in call order.
void compare_calls(Sides& sides, const std::vector<bool>& checked, ConfigOutcome& out) {
  for (std::size_t k = sides.compared; k < sides.plan.seeds.size(); ++k) {
    if (checked[k] && compare_call(sides, k, out)) return;
  }
}

// Warm-up, then the timed (or checked) calls alternating candidate and baseline, the
// determinism rerun, and the oracle on the checked draws.
MaybeFailure run_calls(Sides& sides, const std::vector<bool>& checked, ConfigOutcome& out) {
  const ConfigPlan& plan = sides.plan;
  const int warmups = plan.timed ? sides.ctx.config.warmup_calls : 0;
  const double stop = plan.check ? 0 : plan.stop_above_ns;
  // The warm-up runs the baseline first, so the candidate's first timed call follows a call of
  // its own, as its later ones on even draws do (below).
  for (int w = 0; w < warmups; ++w) {
    if (sides.base) {
      if (auto f = sides.call(*sides.base, plan.warm_seed, nullptr, false, "warm")) return f;
    }
    double t = 0;
    if (auto f = sides.call(*sides.cand, plan.warm_seed, &t, false, "warm")) return f;
    if (stop > 0 && t > 2 * stop) return std::nullopt;
  }
  // Paired calls in A B B A order (the baseline first on odd draws): whatever the call before
  // leaves behind (its saved output's page cache, a CPU's state) then precedes each side
  // equally often. A fixed A B order left the candidate side slower in 30 of 36 tsvc_2_s000 A/A
  // configurations. The two kinds of call are not alike: a call right after the same side's
  // previous call was up to 25 % faster than one right after the other side's (tsvc_2_s000 at 4
  // ms calls, 2026-12-02), so each side's samples are a two-mode mixture, and its median moves
  // with the mix. With an even number of timed calls per process and the warm-up above, each
  // side has exactly half of each kind; a warm-up in C B order gave the candidate one call
  // more after the other side, and credited tsvc_2_s000 against itself 0.95-0.99.
  for (std::size_t k = 0; k < plan.seeds.size(); ++k) {
    const std::string tag = "call" + std::to_string(k);
    double t = 0;
    auto baseline_call = [&]() -> MaybeFailure {
      if (!sides.base) return std::nullopt;
      if (auto f = sides.call(*sides.base, plan.seeds[k], &t, sides.base_is_oracle(), tag)) {
        return f;
      }
      out.base_ns.push_back(t);
      return std::nullopt;
    };
    const bool baseline_first = k % 2 == 1;
    if (baseline_first) {
      if (auto f = baseline_call()) return f;
    }
    if (auto f = sides.call(*sides.cand, plan.seeds[k], &t, plan.check, tag)) return f;
    out.cand_ns.push_back(t);
    if (stop > 0 && t > stop) return std::nullopt;
    if (!baseline_first) {
      if (auto f = baseline_call()) return f;
    }
    if (sides.pairwise) {
      // On a thread of its own, as compare_calls: the comparison's OpenMP team ends with it
      // and spins through none of the next calls.
      run_on_cpus(sides.ctx.cpus, [&] { sides.settled = compare_call(sides, k, out); });
      sides.compared = k + 1;
      if (sides.settled) return std::nullopt;
    }
  }
  if (plan.determinism) {
    if (auto f = sides.call(*sides.cand, plan.seeds[0], nullptr, true, "again")) return f;
  }
  if (sides.oracle && !sides.oracle_done) return oracle_calls(sides, checked);
  return std::nullopt;
}

// The slot watch over a configuration's timed calls: what the scheduler accounted to the timed
// runners (candidate and, paired, baseline; the oracle is never timed) and what the hypervisor
// stole from the slot's CPUs, read when the calls begin and again when they end.
class SlotWindow {
 public:
  SlotWindow(RunContext& ctx, Sides& sides)
      : ctx_(ctx), sides_(sides), on_(ctx.slots != nullptr && sides.plan.timed) {
    if (!on_) return;
    runners_ = runners();
    cpu_ = ctx_.slots->account(ctx_.cpus);
  }

  SlotUse close() {
    SlotUse u;
    if (!on_) return u;
    const SchedTotals now = runners();
    const CpuAccount cpu = ctx_.slots->account(ctx_.cpus);
    const double cpu_ns = static_cast<double>(now.cpu_ns - runners_.cpu_ns);
    const double wait_ns = std::max(0.0, static_cast<double>(now.wait_ns - runners_.wait_ns));
    const double judge_ns = std::max(0.0, (cpu.judge_s - cpu_.judge_s) * 1e9);
    const double total_s = cpu.total_s - cpu_.total_s;
    u.measured = true;
    // The judge's own threads (its watcher wakes on every call, ahead of the runners) are part
    // of the protocol, the same for both sides: waiting they can account for is not charged to
    // the host.
    if (cpu_ns + wait_ns > 0) u.wait = std::max(0.0, wait_ns - judge_ns) / (cpu_ns + wait_ns);
    if (total_s > 0) u.steal = std::max(0.0, cpu.steal_s - cpu_.steal_s) / total_s;
    return u;
  }

 private:
  SchedTotals runners() {
    SchedTotals t;
    for (auto* s : {sides_.cand.get(), sides_.base.get()}) {
      if (!s) continue;
      const SchedTotals x = s->sched();
      t.cpu_ns += x.cpu_ns;
      t.wait_ns += x.wait_ns;
    }
    return t;
  }

  RunContext& ctx_;
  Sides& sides_;
  bool on_;
  SchedTotals runners_;
  CpuAccount cpu_;
};

}  // namespace

ConfigOutcome run_config(RunContext& ctx, const ConfigPlan& plan) {
  // Everything the judge does for the configuration (launching, polling, settling, comparing)
  // stays on the slot's CPUs, off the CPUs of other slots' timed calls (judge/sandbox/affinity.h).
  ScopedAffinity on_slot(ctx.cpus);
  ConfigOutcome out;
  auto ws = workspace_size(ctx.m, ctx.workspace_expr, plan.sizes);
  if (!ws) {
    out.failure = RunFailure{Verdict::kRejected, "workspace_bytes: " + ws.error().message};
    return out;
  }
  Sides sides{ctx, plan, nullptr, nullptr, nullptr, nullptr};
  if (auto f = sides.start(*ws)) {
    out.failure = f;
    return out;
  }
  if (ctx.hooks) ctx.hooks->started(sides.cand->runner_pid());
  const uint64_t out_bytes = output_bytes(ctx.m, plan.sizes, ctx.precision).value();
  // The runner copies the inputs in right before the call and the outputs out right after it
  // (read + write each): part of the judge's view of every call, so part of the allowance (at
  // 1 GB/s when the bandwidth is unknown).
  const uint64_t moved = data_bytes(ctx.m, plan.sizes, ctx.precision).value();
  const double bw = ctx.bandwidth ? ctx.bandwidth->at(2 * moved) : 0;
  const double copy_ns = 2.0 * static_cast<double>(moved) / (bw > 0 ? bw : 1e9) * 1e9;
  for (auto* s : {sides.cand.get(), sides.base.get(), sides.oracle.get()}) {
    if (s) s->set_copy_ns(copy_ns);
  }
  const std::vector<bool> checked = checked_calls(ctx, plan, out_bytes);
  // Which calls are checked is no secret when all of them are: only then may the outputs be
  // read into memory (RunnerSession::allow_memory_outputs).
  const bool every_call = std::all_of(checked.begin(), checked.end(), [](bool c) { return c; });
  for (auto* s : {sides.cand.get(), sides.base.get(), sides.oracle.get()}) {
    if (s) s->allow_memory_outputs(every_call);
  }
  sides.pairwise = plan.check && every_call && sides.base && !sides.oracle &&
                   sides.base_is_oracle() && !plan.determinism;
  SlotWindow watch(ctx, sides);
  if (plan.reference_limit_s > 0 && sides.oracle) {
    if (auto f = reference_first(sides, checked, out)) {
      out.failure = f;
      return out;
    }
    if (out.too_slow) return out;
  }
  if (auto f = run_calls(sides, checked, out)) {
    out.failure = f;
    return out;
  }
  out.slot = watch.close();
  {
    PhaseTimer stopping(ctx, "stop runners");
    sides.stop();
  }
  // The baseline's reports stand as they are (trusted code, honest clock); its overshoot is the
  // noise the candidate's is judged against (judge/grade/clock_audit.h).
  const std::vector<double> no_noise;
  const std::vector<double>& noise = sides.base ? sides.base->overshoot_ns() : no_noise;
  out.clock_shift_ns = sides.cand->audit_shift_ns(noise);
  for (double& v : out.cand_ns) v += out.clock_shift_ns;
  out.judge_median_ns = median(sides.cand->judge_seen_ns());
  out.reported_median_ns = median(sides.cand->reported_ns());
  out.overshoot_min_ns = candidate_min_excess_ns(sides.cand->overshoot_ns(), noise);
  if (plan.check && !sides.settled) {
    // On a thread of its own so that the comparison's OpenMP team starts on the slot's CPUs and
    // ends with it (run_on_cpus).
    run_on_cpus(ctx.cpus, [&] { compare_calls(sides, checked, out); });
  }
  return out;
}

}  // namespace hpcab::judge
