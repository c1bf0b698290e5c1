#include "judge/grader.h"

#include <openssl/rand.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "common/compare.h"
#include "common/hmac.h"
#include "common/inputs.h"
#include "common/npy.h"
#include "common/stats.h"
#include "judge/clock_audit.h"
#include "judge/proctree.h"
#include "judge/sandbox.h"

namespace hpcab::judge {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Slots

SlotPool::SlotPool(std::vector<std::vector<int>> slots)
    : slots_(std::move(slots)), busy_(slots_.size(), false) {}

SlotPool::Lease SlotPool::acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (!busy_[i]) {
        busy_[i] = true;
        return Lease(this, i);
      }
    }
    cv_.wait(lock);
  }
}

SlotPool::Lease::~Lease() {
  if (pool_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(pool_->mu_);
    pool_->busy_[index_] = false;
  }
  pool_->cv_.notify_one();
}

namespace {

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string sizes_json(const SymbolTable& sizes) {
  json j = json::object();
  for (const auto& [k, v] : sizes) j[k] = v;
  return j.dump();
}

std::string sizes_arg(const SymbolTable& sizes) {
  std::string s;
  for (const auto& [k, v] : sizes) s += (s.empty() ? "" : ",") + k + "=" + std::to_string(v);
  return s;
}

std::string tail(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

std::string machine_fingerprint(Builder* builder) {
  std::string model = "unknown cpu";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return std::string(host) + " | " + model + " | " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) +
         " cpus | " + builder->compiler_version("c");
}

namespace {

// A verdict-bearing failure of one runner session.
struct RunFailure {
  std::string verdict;  // crash, timeout, memory, rejected, build_error, judge_error
  std::string detail;
  bool harness = false;
  bool timed_out = false;
};

using MaybeFailure = std::optional<RunFailure>;

constexpr const char* kRunnerInside = "/opt/hpcab/hpcab-runner";

}  // namespace

// One hpcab-runner process in the sandbox, driven call by call.
struct Grader::Session {
  std::unique_ptr<SandboxedProcess> proc;
  std::string role;  // "candidate", "baseline c", "oracle"
  bool candidate = false;
  fs::path dir;  // host side of /sandbox
  double call_timeout_s = 60;
  int64_t rtt_ns = 0;
  pid_t runner_pid = -1;  // host pid of hpcab-runner (found by census() at start)

  // Turns a missing or unexpected reply into a verdict.
  RunFailure classify(const std::string& why, const std::string& reply_line = "") {
    RunFailure f;
    ProcessResult r;
    if (why == "timeout") {
      r = proc->kill_now();
      f.verdict = "timeout";
      f.timed_out = true;
      f.detail = role + ": a call did not finish within " + std::to_string(call_timeout_s) + " s";
    } else {
      r = proc->finish(5);
      std::string log = r.output;
      // bwrap reports a child killed by signal S as exit status 128 + S.
      if (r.term_signal == 0 && r.exit_code > 128 && r.exit_code < 128 + 65) {
        r.term_signal = r.exit_code - 128;
      }
      if (reply_line.rfind("error ", 0) == 0) {
        f.verdict = candidate ? "build_error" : "judge_error";
        f.detail = role + ": " + reply_line.substr(6);
      } else if (log.find("HPCAB-RUNNER: allocation failed") != std::string::npos) {
        f.verdict = "memory";
        f.detail = role + ": memory limit exceeded (" + r.describe() + ")";
      } else if (r.term_signal == SIGKILL) {
        f.verdict = "crash";
        f.detail = role + ": killed by signal 9 from outside the judge (out of memory?)";
      } else if (r.term_signal == SIGXCPU) {
        f.verdict = "timeout";
        f.timed_out = true;
        f.detail = role + ": CPU time limit exceeded";
      } else if (r.term_signal != 0) {
        f.verdict = "crash";
        f.detail = role + ": " + r.describe();
      } else {
        f.verdict = "crash";
        f.detail = role + ": the process ended unexpectedly (" + r.describe() + ")";
      }
      std::string t = tail(log, 1500);
      if (!t.empty()) f.detail += "; output: " + t;
    }
    if (!candidate) {
      f.harness = true;
      f.detail = "judge fault (" + f.verdict + "): " + f.detail;
      f.verdict = "judge_error";
    }
    return f;
  }

  MaybeFailure expect(const std::string& prefix, std::string* line_out, double timeout_s) {
    auto line = proc->receive(timeout_s);
    if (!line) return classify(line.error().message);
    if (line->rfind(prefix, 0) != 0) {
      if (line->rfind("error ", 0) == 0) return classify("protocol", *line);
      // Only the runner's own code writes replies in turn; anything else on fd 3 was written
      // by the kernel (a forged "done", a fake verdict) and is a protocol violation.
      return reject("unexpected reply '" + line->substr(0, 80) +
                    "' on the runner's reply channel (fd 3 belongs to the judge's protocol)");
    }
    if (line_out) *line_out = *line;
    return std::nullopt;
  }

  MaybeFailure command(const std::string& cmd, const std::string& reply, std::string* line,
                       double timeout_s) {
    if (auto st = proc->send(cmd); !st) return classify("eof");
    return expect(reply, line, timeout_s);
  }

  // Processes in the sandbox besides bubblewrap's own and the runner, read by the kernel from
  // /proc: a kernel cannot hide a helper it forked (setsid or a double fork only re-parent it to
  // the namespace's init, still below the launch). The first call, right after the runner said
  // hello, identifies bwrap's chain (its monitor, the namespace's init) and the runner below it;
  // later calls report anything else. Returns a description, empty when clean.
  std::set<pid_t> infrastructure;
  std::string census() {
    std::vector<ProcEntry> all = descendants(proc->pid());
    if (runner_pid < 0) {
      pid_t top = proc->pid();
      for (;;) {
        std::vector<const ProcEntry*> kids;
        for (const auto& e : all) {
          if (e.ppid == top) kids.push_back(&e);
        }
        if (kids.size() != 1) break;
        if (kids[0]->comm == "bwrap") {
          top = kids[0]->pid;
          infrastructure.insert(top);
          continue;
        }
        runner_pid = kids[0]->pid;
        break;
      }
      if (runner_pid < 0)
        return "cannot identify the runner among " + std::to_string(all.size()) +
               " sandbox process(es)";
    }
    std::string extra;
    int n = 0;
    for (const auto& e : all) {
      if (e.pid == runner_pid || infrastructure.count(e.pid) || e.state == 'Z') continue;
      if (n++ < 3) extra += (extra.empty() ? "'" : ", '") + e.comm + "'";
    }
    if (n == 0) return "";
    return std::to_string(n) + " process(es) besides the runner (" + extra + ")";
  }

  // The empty round trip the judge's view of a call includes: "ping" until the runner is seen
  // idle again, exactly as for a call. The median of a few, so one scheduling hiccup (either
  // way) does not shift every call's audit.
  MaybeFailure calibrate() {
    std::vector<double> rtts;
    for (int i = 0; i < 7; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      if (auto f = command("ping", "pong", nullptr, call_timeout_s)) return f;
      if (auto f = wait_idle(t0)) return f;
      auto t1 = std::chrono::steady_clock::now();
      rtts.push_back(static_cast<double>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    }
    rtt_ns = static_cast<int64_t>(median(rtts));
    return std::nullopt;
  }

  MaybeFailure prep(uint64_t seed, const std::string& dist, double scale) {
    std::ostringstream os;
    os << "prep " << seed << " " << dist << " " << scale;
    return command(os.str(), "ready", nullptr, call_timeout_s);
  }

  // Two clocks time each call. The runner's CLOCK_MONOTONIC bracket is precise (no pipe
  // latency) but lives in the candidate's process, where a kernel can subvert it. The judge's
  // view runs from sending "go" until /proc shows the runner blocked on its next command (which
  // the kernel reports and nothing inside the sandbox can forge: a kernel that writes a fake
  // "done" early and keeps computing is still running), minus the median empty round trip.
  // Per call, the overshoot is how far the judge's view exceeds the runner's report plus an
  // allowance (slack + fraction of the view + the copy-out of the outputs). The recorded times
  // of a configuration are the runner's reports shifted up by the median overshoot when it is
  // positive (shifted(), applied to both sides alike): a clock that lies on most calls gains at
  // most the allowance, while a minority of calls delayed by scheduling noise shifts nothing.
  double audit_slack_ns = 0, audit_fraction = 0, copy_ns = 0;
  std::vector<double> judge_seen_ns;  // the judge's view of each call
  std::vector<double> overshoot_ns;   // view - allowance - runner's report (> 0: a lie)
  std::vector<double> reported_ns;    // the runner's own reports, as they came
  MaybeFailure go(double* ns) {
    std::string line;
    auto t0 = std::chrono::steady_clock::now();
    if (auto f = command("go", "done ", &line, call_timeout_s)) return f;
    if (auto f = wait_idle(t0)) return f;
    auto t1 = std::chrono::steady_clock::now();
    int64_t outer = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
    int64_t inner = 0;
    try {
      inner = std::stoll(line.substr(5));
    } catch (...) {
      return classify("protocol", line);
    }
    if (inner <= 0) return classify("protocol", line);
    const double view = static_cast<double>(std::max<int64_t>(outer - rtt_ns, 0));
    const double allowed = audit_slack_ns + audit_fraction * view + copy_ns;
    judge_seen_ns.push_back(view);
    overshoot_ns.push_back(view - allowed - static_cast<double>(inner));
    reported_ns.push_back(static_cast<double>(inner));
    *ns = static_cast<double>(inner);
    if (candidate) {
      std::string extra = census();
      if (!extra.empty()) return reject("left " + extra + " running after the call returned");
    }
    return std::nullopt;
  }

  // `reported` (this session's timed calls, in order) shifted up by the audit's rule
  // (judge/clock_audit.h) against the honest side's overshoot `noise` (empty: none ran).
  // Warm-up calls are in overshoot_ns too; they only make the medians more representative.
  std::vector<double> shifted(std::vector<double> reported, std::span<const double> noise) const {
    const double shift = candidate_shift_ns(overshoot_ns, noise);
    for (double& v : reported) v += shift;
    return reported;
  }

  // Waits until the runner blocks reading stdin (its idle state between commands). Never
  // spins: the runner may share this thread's CPU, and a busy judge would delay the very state
  // change it waits for (and bill the delay to the candidate). Yields first, then sleeps briefly.
  MaybeFailure wait_idle(std::chrono::steady_clock::time_point since) {
    if (runner_pid <= 0) return std::nullopt;
    // Short sleeps must stay short (the default 50 us timer slack would dominate them).
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    for (int i = 0;; ++i) {
      if (waiting_on_read(runner_pid, 0)) return std::nullopt;
      if (i % 64 == 63) {
        if (::kill(runner_pid, 0) != 0) return std::nullopt;  // gone: the next command says how
        if (std::chrono::steady_clock::now() - since >
            std::chrono::duration<double>(call_timeout_s)) {
          return classify("timeout");
        }
      }
      if (i < 8) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      }
    }
  }

  // Threads of the candidate between calls (SPEC §5.7: no work may escape the clock). After each
  // call every thread but the runner's main one must go to sleep within thread_settle_s (an
  // OpenMP pool spins briefly, then waits on a futex); their CPU time is then noted, and by the
  // start of the next call (after the next draw was generated, single-threaded, in this runner)
  // they may have used at most outside_cpu_ns more. A helper that precomputes the next answer
  // while the draw is written, or a timer signal doing the same, shows up here.
  double settle_s = 0.5;
  double outside_cpu_ns = 250e3;
  std::map<pid_t, int64_t> thread_cpu_at_rest;
  bool have_rest = false;
  MaybeFailure settle_threads() {
    if (runner_pid <= 0) return std::nullopt;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
      auto threads = other_threads(runner_pid);
      const ThreadEntry* busy = nullptr;
      for (const auto& t : threads) {
        if (t.state == 'R' || t.state == 'D') busy = &t;
      }
      if (busy == nullptr) {
        thread_cpu_at_rest.clear();
        for (const auto& t : threads) thread_cpu_at_rest[t.tid] = t.cpu_ns;
        have_rest = true;
        return std::nullopt;
      }
      const double waited =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (waited > settle_s) {
        return reject("a thread (" + std::to_string(threads.size()) +
                      " besides the main one) kept running " + std::to_string(settle_s) +
                      " s after the call returned: work left running escapes the clock");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(i < 20 ? 100 : 1000));
    }
  }
  MaybeFailure check_outside_cpu() {
    if (runner_pid <= 0 || !have_rest) return std::nullopt;
    int64_t used = 0;
    for (const auto& t : other_threads(runner_pid)) {
      if (t.cpu_ns < 0) return std::nullopt;  // no schedstats on this kernel: nothing to compare
      auto it = thread_cpu_at_rest.find(t.tid);
      used += t.cpu_ns - (it == thread_cpu_at_rest.end() ? 0 : it->second);
    }
    if (static_cast<double>(used) > outside_cpu_ns) {
      return reject("threads besides the main one used " + std::to_string(used / 1000) +
                    " us of CPU between calls (allowed " +
                    std::to_string(static_cast<int64_t>(outside_cpu_ns / 1000)) +
                    " us): work outside the clock");
    }
    return std::nullopt;
  }

  RunFailure reject(const std::string& why) {
    proc->kill_now();
    RunFailure f;
    f.verdict = "rejected";
    f.detail = role + ": " + why;
    if (!candidate) {
      f.harness = true;
      f.verdict = "judge_error";
      f.detail = "judge fault: " + f.detail;
    }
    return f;
  }

  MaybeFailure post(bool save, const std::string& tag) {
    std::string line;
    if (auto f = command("post " + std::to_string(save ? 1 : 0) + " " + tag, "posted ", &line,
                         call_timeout_s)) {
      return f;
    }
    // "posted <problem> <name> <index>": problems the runner found after the call.
    if (line != "posted ok") {
      std::istringstream is(line.substr(7));
      std::string problem, name, index;
      is >> problem >> name >> index;
      if (problem == "const") {
        return reject("wrote through a const pointer: input '" + name + "' changed at index " +
                      index);
      }
      if (problem == "guard") {
        const bool before = !index.empty() && index[0] == '-';
        return reject("wrote outside array '" + name + "': guard zone damaged " +
                      (before ? index.substr(1) + " byte(s) before its start"
                              : "at byte " + index + " past its end"));
      }
      if (problem == "late") {
        return reject("output '" + name + "' changed after the call returned (element " + index +
                      "): work left running after the return escapes the clock");
      }
      return classify("protocol", line);
    }
    return std::nullopt;
  }

  void pause() { proc->pause(); }
  void resume() { proc->resume(); }

  void finish() {
    if (proc) {
      (void)proc->send("quit");
      proc->finish(5);
    }
  }
};

struct Grader::Context {
  const Manifest& m;
  Precision precision;
  std::string preset;
  fs::path work;
  std::vector<int> cpus;
  std::string cand_lib, base_lib, oracle_lib;
  std::string base_name;
  std::optional<std::string> workspace_expr;
  double max_rel = 0;
  int sessions = 0;
  // Wall seconds per stage of the grade (reported as "timings_s"; `make bench` prints them).
  std::map<std::string, double> phase_s;
  const BandwidthTable* bandwidth = nullptr;  // for the copy-out allowance of the clock audit
};

namespace {

class PhaseTimer {
 public:
  PhaseTimer(std::map<std::string, double>& into, std::string name)
      : into_(into), name_(std::move(name)), t0_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    into_[name_] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::map<std::string, double>& into_;
  std::string name_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace

namespace {

struct ConfigPlan {
  std::string label;
  SymbolTable sizes;
  std::vector<uint64_t> seeds;  // one per timed call
  uint64_t warm_seed = 0;
  std::string dist = "auto";
  double scale = 1;
  bool timed = true;         // false: correctness only (one call per seed)
  bool paired = false;       // baseline alternates with the candidate in the same slot
  bool determinism = false;  // run seeds[0] twice and compare (before /submit records)
  bool check = true;         // false: timing only (baseline measurement), no oracle, no compare
  int cand_threads = 0;      // threads of the timed library; 0: every CPU of the slot
};

struct ConfigOutcome {
  std::vector<double> cand_ns, base_ns;
  std::string failed_output;  // the first output that did not match (for redacted details)
  // The judge's own view of the candidate's calls (median) and the least overshoot of any call
  // beyond the allowance (> 0: even the most favourable call shows a lying clock).
  double judge_median_ns = 0, overshoot_min_ns = 0;
  double reported_median_ns = 0;  // what the runner claimed (the floor judges the claim)
  bool correct = true;
  std::string detail;
  MaybeFailure failure;
};

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

// Largest |a - b| over real outputs against 30 * eps * max|a| (SPEC §5.6 determinism).
std::string determinism_problem(const std::map<std::string, NdArray>& a,
                                const std::map<std::string, NdArray>& b, Precision p) {
  for (const auto& [name, x] : a) {
    const NdArray& y = b.at(name);
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

Result<std::map<std::string, NdArray>> load_outputs(const Manifest& m, const fs::path& dir) {
  std::map<std::string, NdArray> out;
  for (const auto& a : m.arrays) {
    if (!a.is_output()) continue;
    auto arr = read_npy((dir / (a.name + ".npy")).string());
    if (!arr) return arr.error();
    out.emplace(a.name, std::move(*arr));
  }
  return out;
}

}  // namespace

Grader::Grader(const JudgeConfig& config, std::vector<Manifest> corpus, Store* store,
               std::string key, Builder* builder, BandwidthTable bandwidth)
    : config_(config),
      corpus_(std::move(corpus)),
      store_(store),
      key_(std::move(key)),
      builder_(builder),
      slots_(config.slots),
      machine_(machine_fingerprint(builder)),
      bandwidth_(std::move(bandwidth)) {}

const Manifest* Grader::kernel(const std::string& id) const {
  for (const auto& m : corpus_) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

std::string Grader::baseline_name(const Manifest& m) const {
  auto it = config_.track_baseline.find(m.track);
  return it == config_.track_baseline.end() ? "c" : it->second;
}

namespace {

// Starts one runner session for `role` on `lib` at `sizes`.
MaybeFailure start_session(const JudgeConfig& cfg, const Manifest& m, Precision p,
                           const fs::path& work, const std::string& role, bool candidate,
                           const std::string& lib, const SymbolTable& sizes, int64_t workspace,
                           const std::vector<int>& cpus, int threads, int serial,
                           std::unique_ptr<Grader::Session>& out) {
  auto s = std::make_unique<Grader::Session>();
  s->role = role;
  s->candidate = candidate;
  s->call_timeout_s = cfg.call_timeout_s;
  s->dir = work / ("s" + std::to_string(serial));
  std::error_code ec;
  fs::create_directories(s->dir / "out", ec);
  fs::permissions(s->dir, fs::perms::all, ec);
  fs::permissions(s->dir / "out", fs::perms::all, ec);
  fs::copy_file(lib, s->dir / "lib.so", fs::copy_options::overwrite_existing, ec);
  if (ec) return RunFailure{"judge_error", "cannot stage " + lib + ": " + ec.message(), true};
  // Readable by the sandbox's unprivileged uid whatever the judge's umask.
  fs::permissions(s->dir / "lib.so",
                  fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read, ec);
  SandboxSpec spec;
  // The manifest travels in the session dir (the loader checks folder == id), so the corpus
  // directory is never mounted and its permissions do not matter.
  const std::string kernel_dir = "/sandbox/" + m.id;
  fs::create_directories(s->dir / m.id, ec);
  fs::copy_file(m.dir / "kernel.json", s->dir / m.id / "kernel.json",
                fs::copy_options::overwrite_existing, ec);
  fs::permissions(s->dir / m.id, fs::perms::all, ec);
  fs::permissions(s->dir / m.id / "kernel.json",
                  fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read, ec);
  spec.argv = {kRunnerInside,     "--manifest",        kernel_dir + "/kernel.json",    "--lib",
               "/sandbox/lib.so", "--precision",       std::string(precision_name(p)), "--sizes",
               sizes_arg(sizes),  "--workspace-bytes", std::to_string(workspace),      "--out-dir",
               "/sandbox/out",    "--gen-threads",     candidate ? "1" : "0"};
  spec.mounts = {{s->dir.string(), "/sandbox", true}, {cfg.runner_path, kRunnerInside, false}};
  spec.env = {"PATH=/usr/bin:/bin",
              "HOME=/tmp",
              "TMPDIR=/tmp",
              "LANG=C",
              "OMP_NUM_THREADS=" + std::to_string(threads),
              "OMP_PROC_BIND=close",
              "OMP_PLACES=cores"};
  spec.cpus = threads == 1 ? std::vector<int>{cpus.front()} : cpus;
  spec.limits.wall_s = cfg.runner_wall_s;
  spec.limits.cpu_s = cfg.runner_cpu_s;
  spec.limits.address_space = cfg.memory_bytes;
  spec.limits.nproc = cfg.sandbox_nproc;
  spec.limits.output_cap = cfg.run_log_cap;
  auto proc = SandboxedProcess::start(cfg.sandbox_policy(), spec, (s->dir / "log.txt").string());
  if (!proc)
    return RunFailure{"judge_error", "cannot start the runner: " + proc.error().message, true};
  s->proc = std::move(*proc);
  // Startup includes loading the library (its constructors run) and allocating the draw.
  if (auto f = s->expect("hello", nullptr, cfg.call_timeout_s + 30)) return f;
  if (std::string extra = s->census(); !extra.empty()) {
    return s->reject("started " + extra + " while the library was loaded");
  }
  if (auto f = s->calibrate()) return f;
  out = std::move(s);
  return std::nullopt;
}

}  // namespace

namespace {

// Runs one size configuration: candidate (and, paired, the baseline) call by call, the oracle on
// every checked draw, outputs compared in the judge.
ConfigOutcome run_config(const JudgeConfig& cfg, Grader::Context& ctx, const ConfigPlan& plan) {
  ConfigOutcome out;
  const Manifest& m = ctx.m;
  auto ws = workspace_size(m, ctx.workspace_expr, plan.sizes);
  if (!ws) {
    out.failure = RunFailure{"rejected", "workspace_bytes: " + ws.error().message};
    return out;
  }
  const int slot_threads = static_cast<int>(ctx.cpus.size());
  const bool base_is_oracle = ctx.base_name == "c";
  std::unique_ptr<Grader::Session> cand, base, oracle;
  std::optional<PhaseTimer> starting(std::in_place, ctx.phase_s, "start runners");
  const int cand_threads = plan.cand_threads > 0 ? plan.cand_threads : slot_threads;
  if (auto f = start_session(cfg, m, ctx.precision, ctx.work, "candidate", true, ctx.cand_lib,
                             plan.sizes, *ws, ctx.cpus, cand_threads, ctx.sessions++, cand)) {
    out.failure = f;
    return out;
  }
  if (plan.paired) {
    int threads = ctx.base_name == "c" ? 1 : slot_threads;
    if (auto f =
            start_session(cfg, m, ctx.precision, ctx.work, "baseline " + ctx.base_name, false,
                          ctx.base_lib, plan.sizes, 0, ctx.cpus, threads, ctx.sessions++, base)) {
      out.failure = f;
      return out;
    }
    base->pause();
  }
  const bool separate_oracle = plan.check && !(plan.paired && base_is_oracle);
  if (separate_oracle) {
    if (auto f = start_session(cfg, m, ctx.precision, ctx.work, "oracle", false, ctx.oracle_lib,
                               plan.sizes, 0, ctx.cpus, 1, ctx.sessions++, oracle)) {
      out.failure = f;
      return out;
    }
    oracle->pause();
  }

  starting.reset();
  // Which calls are checked: every one when outputs are small; otherwise the last and three
  // chosen with a CSPRNG. The choice stays in the judge: the runner saves outputs on every call
  // (post 1), so nothing the candidate can observe depends on it.
  uint64_t out_bytes = 0;
  {
    SymbolTable syms = m.symbols(plan.sizes);
    for (const auto& a : m.arrays) {
      if (!a.is_output()) continue;
      uint64_t n = dtype_size(a.dtype(ctx.precision));
      for (const auto& e : a.shape)
        n *= static_cast<uint64_t>(std::max<int64_t>(0, e.eval(syms).value()));
      out_bytes += n;
    }
  }
  {
    // The runner copies the outputs out (read + write) before it answers: part of the judge's
    // view of every call, so part of the allowance (at 1 GB/s when the bandwidth is unknown).
    double bw = ctx.bandwidth ? ctx.bandwidth->at(2 * out_bytes) : 0;
    double copy_ns = 2.0 * static_cast<double>(out_bytes) / (bw > 0 ? bw : 1e9) * 1e9;
    for (auto* s : {cand.get(), base.get(), oracle.get()}) {
      if (!s) continue;
      s->audit_slack_ns = cfg.clock_audit_slack_ns;
      s->settle_s = cfg.thread_settle_s;
      s->outside_cpu_ns = cfg.outside_cpu_ns;
      s->audit_fraction = cfg.clock_audit_fraction;
      s->copy_ns = copy_ns;
    }
  }
  const std::size_t n = plan.seeds.size();
  std::vector<bool> checked(n, true);
  if (plan.timed && out_bytes > cfg.check_all_bytes && n > 4) {
    std::fill(checked.begin(), checked.end(), false);
    checked[n - 1] = true;
    for (int picked = 0; picked < 3;) {
      uint32_t r = 0;
      RAND_bytes(reinterpret_cast<unsigned char*>(&r), sizeof r);
      std::size_t k = r % (n - 1);
      if (!checked[k]) {
        checked[k] = true;
        ++picked;
      }
    }
  }
  // Saving is decided per call only after it returned (post), so "checked" is never visible
  // to the candidate before it runs; with every call checked, every call is saved.
  auto call = [&](Grader::Session& s, uint64_t seed, double* ns, bool save,
                  const std::string& tag) -> MaybeFailure {
    s.resume();
    {
      PhaseTimer inputs(ctx.phase_s, "inputs");
      if (auto f = s.prep(seed, plan.dist, plan.scale)) return f;
    }
    if (s.candidate) {
      if (auto f = s.check_outside_cpu()) return f;
    }
    double t = 0;
    {
      PhaseTimer run(ctx.phase_s, s.candidate          ? "candidate"
                                  : s.role == "oracle" ? "oracle"
                                                       : "baseline");
      if (auto f = s.go(&t)) return f;
      if (auto f = s.post(save, tag)) return f;
    }
    {
      // Every side, not only the candidate: each call then starts with its thread pool asleep,
      // so neither side enters a call with threads still spinning from the last one.
      PhaseTimer settling(ctx.phase_s, "settle");
      if (auto f = s.settle_threads()) return f;
    }
    s.pause();
    if (ns) *ns = t;
    return std::nullopt;
  };

  auto finish_all = [&] {
    for (auto* s : {cand.get(), base.get(), oracle.get()}) {
      if (s) s->finish();
    }
  };

  if (plan.timed) {
    for (int w = 0; w < cfg.warmup_calls; ++w) {
      if (auto f = call(*cand, plan.warm_seed, nullptr, false, "warm")) {
        out.failure = f;
        finish_all();
        return out;
      }
      if (base) {
        if (auto f = call(*base, plan.warm_seed, nullptr, false, "warm")) {
          out.failure = f;
          finish_all();
          return out;
        }
      }
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::string tag = "call" + std::to_string(k);
    double t = 0;
    if (auto f = call(*cand, plan.seeds[k], &t, plan.check, tag)) {
      out.failure = f;
      finish_all();
      return out;
    }
    out.cand_ns.push_back(t);
    if (base) {
      if (auto f = call(*base, plan.seeds[k], &t, base_is_oracle, tag)) {
        out.failure = f;
        finish_all();
        return out;
      }
      out.base_ns.push_back(t);
    }
  }
  std::string again_tag;
  if (plan.determinism) {
    again_tag = "again";
    if (auto f = call(*cand, plan.seeds[0], nullptr, true, again_tag)) {
      out.failure = f;
      finish_all();
      return out;
    }
  }
  if (oracle) {
    for (std::size_t k = 0; k < n; ++k) {
      if (!checked[k]) continue;
      if (auto f = call(*oracle, plan.seeds[k], nullptr, true, "call" + std::to_string(k))) {
        out.failure = f;
        finish_all();
        return out;
      }
    }
  }
  finish_all();
  // The baseline's reports stand as they are (trusted code, honest clock); its overshoot is the
  // noise the candidate's is judged against (judge/clock_audit.h).
  const std::vector<double> no_noise;
  const std::vector<double>& noise = base ? base->overshoot_ns : no_noise;
  out.cand_ns = cand->shifted(std::move(out.cand_ns), noise);
  out.judge_median_ns = median(cand->judge_seen_ns);
  out.reported_median_ns = median(cand->reported_ns);
  out.overshoot_min_ns = candidate_min_excess_ns(cand->overshoot_ns, noise);
  if (!plan.check) return out;

  PhaseTimer comparing(ctx.phase_s, "compare");
  const fs::path oracle_dir = (oracle ? oracle->dir : base->dir) / "out";
  const fs::path cand_dir = cand->dir / "out";
  std::optional<int64_t> red;
  if (m.reduction_length) {
    auto l = m.reduction_length->eval(m.symbols(plan.sizes));
    if (l) red = *l;
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (!checked[k]) continue;
    std::string tag = "call" + std::to_string(k);
    auto want = load_outputs(m, oracle_dir / tag);
    if (!want) {
      out.failure = RunFailure{"judge_error", "oracle outputs: " + want.error().message, true};
      return out;
    }
    auto got = load_outputs(m, cand_dir / tag);
    if (!got) {
      out.failure = RunFailure{"crash", "candidate outputs unreadable: " + got.error().message};
      return out;
    }
    std::vector<NamedArray> e, a;
    for (auto& [name, arr] : *want) e.push_back({name, &arr});
    for (auto& [name, arr] : *got) a.push_back({name, &arr});
    auto cmp = compare_outputs(e, a, CompareOptions{ctx.precision, red});
    if (cmp.status == CompareResult::Status::kUngradeable) {
      out.failure = RunFailure{"rejected", plan.label + ": ungradeable: " + cmp.detail};
      return out;
    }
    ctx.max_rel = std::max(ctx.max_rel, cmp.max_rel_error);
    if (!cmp.passed()) {
      out.correct = false;
      out.failed_output = cmp.first_failure ? cmp.first_failure->output : "?";
      out.detail = plan.label + " " + sizes_json(plan.sizes) + ", call " + std::to_string(k) +
                   ": " + cmp.detail;
      return out;
    }
    if (k == 0 && plan.determinism) {
      auto again = load_outputs(m, cand_dir / again_tag);
      if (!again) {
        out.failure = RunFailure{"crash", "candidate outputs unreadable: " + again.error().message};
        return out;
      }
      std::string problem = determinism_problem(*got, *again, ctx.precision);
      if (!problem.empty()) {
        out.correct = false;
        out.failed_output = "(nondeterministic)";
        out.detail = plan.label + ": " + problem;
        return out;
      }
    }
  }
  return out;
}

}  // namespace

Result<json> Grader::baseline_times(const Manifest& m, const std::string& preset,
                                    const std::string& precision_text) {
  auto p = parse_precision(precision_text);
  if (!p || !m.supports(*p)) return Error{"precision not supported"};
  auto sizes = preset_sizes(m, preset);
  if (!sizes) return sizes.error();
  std::string ref = read_file(m.reference_c().string());
  json result = {{"kernel", m.id},
                 {"preset", preset},
                 {"precision", precision_text},
                 {"baselines", json::object()}};
  std::set<std::string> names = {baseline_name(m), "c"};
  std::string protocol;
  for (const auto& name : names) {
    auto built = builder_->build({"c", name, ref, {}});
    if (!built) return built.error();
    if (!built->ok)
      return Error{"reference.c does not build as baseline " + name + ": " + built->log};
    BaselineKey key{m.id, precision_text, sizes_json(*sizes), name, machine_, built->hash};
    auto cached = store_->get_baseline(key);
    if (!cached) return cached.error();
    // Stale samples (SPEC §11) are measured again; the key already covers reference, flags,
    // compiler and machine changes.
    if (*cached && now_unix() - (*cached)->measured_at > config_.baseline_max_age_s) {
      cached->reset();
    }
    if (*cached) {
      result["baselines"][name] =
          median(std::vector<double>((*cached)->ns.begin(), (*cached)->ns.end()));
      protocol = (*cached)->protocol;
      continue;
    }
    auto lease = slots_.acquire();
    std::string tmpl = (fs::path(config_.scratch_dir) / "baseline-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) return Error{"cannot create a scratch dir"};
    fs::permissions(tmpl, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
    Context ctx{m,    *p,           preset, tmpl, lease.cpus(), "",         "", built->library,
                name, std::nullopt, 0,      0,    {},           &bandwidth_};
    ConfigPlan plan;
    plan.label = "baseline";
    plan.sizes = *sizes;
    for (int k = 0; k < config_.timed_calls; ++k) {
      plan.seeds.push_back(derive_seed(
          key_, "score", m.id + "|" + precision_text + "|" + preset + "|call" + std::to_string(k)));
    }
    plan.warm_seed =
        derive_seed(key_, "score", m.id + "|" + precision_text + "|" + preset + "|warm");
    // The baseline alone, timed like a candidate (same runner, same protocol, same draws).
    ctx.cand_lib = built->library;
    plan.check = false;
    plan.cand_threads = name == "c" ? 1 : 0;  // sequential baselines run on one core (§5.10)
    auto o = run_config(config_, ctx, plan);
    std::error_code ec;
    fs::remove_all(tmpl, ec);
    if (o.failure) return Error{"measuring baseline " + name + ": " + o.failure->detail};
    BaselineSamples samples;
    for (double v : o.cand_ns) samples.ns.push_back(static_cast<int64_t>(v));
    samples.measured_at = now_unix();
    samples.protocol = "unpaired: " + std::to_string(config_.timed_calls) +
                       " calls on the public draws, fresh draw per call, slot of " +
                       std::to_string(lease.cpus().size()) + " cpu(s), " +
                       (name == "c" ? "1 thread" : "all slot threads") + ", this machine";
    protocol = samples.protocol;
    if (auto st = store_->put_baseline(key, samples); !st) return st.error();
    result["baselines"][name] = median(o.cand_ns);
  }
  result["protocol"] = protocol;
  return result;
}

std::string Grader::plausibility_problem(const Manifest& m, Precision p, const SymbolTable& sizes,
                                         double cand_median_ns, double judge_median_ns,
                                         double overshoot_min_ns, double reported_median_ns) const {
  // 1. The runner's clock against the judge's (see Session::go): when even the call closest to
  // agreement overshoots the allowance, the runner's clock was subverted on every call.
  if (overshoot_min_ns > 0) {
    auto fmt = [](double v) { return std::to_string(static_cast<int64_t>(v)); };
    return "the runner's clock reported a median of " + fmt(reported_median_ns) +
           " ns per call but the judge saw " + fmt(judge_median_ns) + " ns (every call at least " +
           fmt(overshoot_min_ns) + " ns beyond the allowance): clock tampering";
  }
  // 2. The bandwidth floor, on what the runner claimed (never above the recorded time): an
  // honest clock cannot report a call faster than the machine moves the declared bytes.
  return bandwidth_floor_problem(m, p, sizes, std::min(cand_median_ns, reported_median_ns),
                                 bandwidth_, config_.bandwidth_floor_fraction);
}

json Grader::grade(const GradeRequest& req) {
  const double received = req.received_at > 0 ? req.received_at : now_unix();
  const Manifest* mp = kernel(req.kernel);
  const Manifest& m = *mp;  // routes validated the kernel
  const Precision p = *parse_precision(req.precision);
  const std::string preset = req.preset.value_or(config_.default_preset);
  const SymbolTable sizes = m.presets.at(preset);
  const bool submit = req.route != "score";
  const std::string base = baseline_name(m);

  json r = {{"kernel", m.id},
            {"language", req.language},
            {"precision", req.precision},
            {"preset", preset},
            {"build_ok", false},
            {"correct", false},
            {"public_correct", false},
            {"hidden_correct", submit ? json(false) : json(nullptr)},
            {"hidden_passed", 0},
            {"hidden_total", 0},
            {"speedup", nullptr},
            {"speedups", json::object()},
            {"native_ns", nullptr},
            {"baseline", base},
            {"baseline_ns", nullptr},
            {"baselines", json::object()},
            {"oracle", "reference.c"},
            {"max_rel_error", nullptr},
            {"detail", ""},
            {"timed_out", false},
            {"harness_fault", false},
            {"verdict", "judge_error"},
            {"suspect", false},
            {"route", req.route},
            {"configs", json::array()}};

  SubmissionRecord rec;
  rec.route = req.route;
  rec.rank = req.rank;
  rec.kernel = m.id;
  rec.language = req.language;
  rec.precision = req.precision;
  rec.preset = preset;
  rec.sizes_json = sizes_json(sizes);
  rec.source = req.source.value_or("");
  rec.library_path = req.library_path.value_or("");
  rec.build_tokens_json = json(req.build_tokens).dump();
  rec.machine = machine_;
  rec.judge_version = HPCAB_VERSION;
  rec.run_id = req.run_id;
  rec.optimizer = req.optimizer;
  rec.tokens = req.tokens;
  rec.received_at = received;
  if (req.workspace_bytes) {
    auto ws = workspace_size(m, req.workspace_bytes, sizes);
    if (ws) rec.workspace_bytes = *ws;
  }

  std::map<std::string, double> phases;
  std::map<std::string, double>* run_phases = nullptr;  // the grade context's, once it exists
  // `detail` goes to the client; `recorded_detail` (when given) only to the database: hidden
  // draws' sizes and values must never reach a response (SPEC §5.3).
  auto finish = [&](const std::string& verdict, const std::string& detail,
                    const std::string& recorded_detail = "") -> json {
    if (run_phases) {
      for (const auto& [k, v] : *run_phases) phases[k] += v;
    }
    r["timings_s"] = phases;
    r["verdict"] = verdict;
    r["detail"] = detail;
    rec.verdict = verdict;
    rec.detail = recorded_detail.empty() ? detail : recorded_detail;
    rec.build_ok = r["build_ok"];
    rec.correct = r["correct"];
    rec.public_correct = r["public_correct"];
    rec.hidden_correct = r["hidden_correct"].is_boolean() && r["hidden_correct"].get<bool>();
    rec.hidden_passed = r["hidden_passed"];
    rec.hidden_total = r["hidden_total"];
    if (r["speedup"].is_number()) rec.speedup = r["speedup"].get<double>();
    rec.baseline = base;
    if (r["native_ns"].is_number()) rec.native_ns = r["native_ns"].get<double>();
    if (r["baseline_ns"].is_number()) rec.baseline_ns = r["baseline_ns"].get<double>();
    if (r["max_rel_error"].is_number()) rec.max_rel_error = r["max_rel_error"].get<double>();
    rec.suspect = r["suspect"];
    rec.timed_out = r["timed_out"];
    rec.finished_at = now_unix();
    const auto record_start = std::chrono::steady_clock::now();
    if (submit) {
      rec.response_json = r.dump();
      auto id = store_->record_submission(rec);
      if (id) {
        r["submission_id"] = *id;
      } else {
        r["verdict"] = "judge_error";
        r["harness_fault"] = true;
        r["detail"] = "recording failed: " + id.error().message;
      }
    } else {
      ScoreCallRecord s;
      s.rank = req.rank;
      s.kernel = m.id;
      s.language = req.language;
      s.precision = req.precision;
      s.preset = preset;
      s.content_hash = rec.content_hash;
      s.verdict = verdict;
      if (r["speedup"].is_number()) s.speedup = r["speedup"].get<double>();
      s.run_id = req.run_id;
      s.optimizer = req.optimizer;
      s.received_at = received;
      s.finished_at = rec.finished_at;
      s.response_json = r.dump();
      (void)store_->record_score_call(s);
    }
    r["timings_s"]["record"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - record_start).count();
    return r;
  };

  // 1. Build the candidate and the references.
  std::optional<PhaseTimer> building(std::in_place, phases, "build");
  std::string cand_lib;
  if (req.library_path) {
    cand_lib = *req.library_path;
    rec.content_hash = to_hex(sha256(read_file(cand_lib)));
    r["build_ok"] = true;
  } else {
    auto built = builder_->build({req.language, "submission", *req.source, req.build_tokens});
    if (!built) {
      r["harness_fault"] = true;
      return finish("judge_error", "build: " + built.error().message);
    }
    rec.content_hash = built->hash;
    rec.build_log = built->log;
    if (!built->ok) {
      r["timed_out"] = built->timed_out;
      return finish("build_error", "compilation failed" +
                                       std::string(built->timed_out ? " (timed out)" : "") + ":\n" +
                                       tail(built->log, 8000));
    }
    r["build_ok"] = true;
    cand_lib = built->library;
  }
  std::string ref = read_file(m.reference_c().string());
  auto oracle_build = builder_->build({"c", "c", ref, {}});
  auto base_build = base == "c" ? oracle_build : builder_->build({"c", base, ref, {}});
  if (!oracle_build || !oracle_build->ok || !base_build || !base_build->ok) {
    r["harness_fault"] = true;
    return finish("judge_error", "reference.c does not build on this judge");
  }
  building.reset();

  // /score compares against cached baseline samples (measured now if missing, which takes the
  // slot itself, so before this grade holds it).
  std::vector<double> cached_base_ns;
  std::string cached_protocol;
  if (!submit) {
    auto times = baseline_times(m, preset, req.precision);
    if (!times) {
      r["harness_fault"] = true;
      return finish("judge_error", "baseline: " + times.error().message);
    }
    BaselineKey key{m.id, req.precision, sizes_json(sizes), base, machine_, base_build->hash};
    auto cached = store_->get_baseline(key);
    if (!cached || !*cached) {
      r["harness_fault"] = true;
      return finish("judge_error", "baseline cache miss after measuring");
    }
    cached_base_ns.assign((*cached)->ns.begin(), (*cached)->ns.end());
    cached_protocol = "cached: " + (*cached)->protocol;
  }

  // 2. Run, holding one slot for every timed and untimed run of this grade.
  auto lease = slots_.acquire();
  std::string tmpl = (fs::path(config_.scratch_dir) / "grade-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    r["harness_fault"] = true;
    return finish("judge_error", "cannot create a scratch dir in " + config_.scratch_dir);
  }
  std::error_code ec;
  fs::permissions(tmpl, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec, ec);
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code e;
      fs::remove_all(dir, e);
    }
  } cleanup{tmpl};
  Context ctx{m,
              p,
              preset,
              tmpl,
              lease.cpus(),
              cand_lib,
              base_build->library,
              oracle_build->library,
              base,
              req.workspace_bytes,
              0,
              0,
              {},
              &bandwidth_};
  run_phases = &ctx.phase_s;

  auto fail_run = [&](const RunFailure& f) {
    r["timed_out"] = f.timed_out;
    r["harness_fault"] = f.harness;
    return finish(f.verdict, f.detail);
  };

  const std::string pub = m.id + "|" + req.precision + "|" + preset;
  ConfigPlan pub_plan;
  pub_plan.label = "public " + preset;
  pub_plan.sizes = sizes;
  for (int k = 0; k < config_.timed_calls; ++k) {
    pub_plan.seeds.push_back(derive_seed(key_, "score", pub + "|call" + std::to_string(k)));
  }
  pub_plan.warm_seed = derive_seed(key_, "score", pub + "|warm");
  pub_plan.paired = submit;
  auto pub_out = run_config(config_, ctx, pub_plan);
  if (pub_out.failure) return fail_run(*pub_out.failure);
  r["max_rel_error"] = ctx.max_rel;
  if (!pub_out.correct) return finish("incorrect", pub_out.detail);
  r["public_correct"] = true;

  // Baseline samples: paired on /submit, cached (same protocol, same draws) on /score.
  std::vector<double> base_ns = pub_out.base_ns;
  std::string protocol = "paired: candidate and baseline alternate call by call in one slot";
  if (!submit) {
    base_ns = cached_base_ns;
    protocol = cached_protocol;
  }
  r["baseline_protocol"] = protocol;

  struct Timed {
    std::string label;
    SymbolTable sizes;
    std::vector<double> cand, base;
    double judge_median_ns = 0, overshoot_min_ns = 0, reported_median_ns = 0;
  };
  std::vector<Timed> timed;
  // A timed configuration is credited and both sides' samples are recorded.
  auto add_timed = [&](Timed t) {
    for (const auto& [side, ns] :
         {std::pair{std::string("candidate"), &t.cand}, std::pair{base, &t.base}}) {
      rec.samples.push_back({t.label, side, {}});
      for (double v : *ns) rec.samples.back().ns.push_back(static_cast<int64_t>(v));
    }
    timed.push_back(std::move(t));
  };
  add_timed({pub_plan.label, sizes, pub_out.cand_ns, base_ns, pub_out.judge_median_ns,
             pub_out.overshoot_min_ns, pub_out.reported_median_ns});

  // 3. /submit: hidden correctness variants and secret fuzzed timing configurations.
  if (submit) {
    unsigned char nonce_bytes[16];
    RAND_bytes(nonce_bytes, sizeof nonce_bytes);
    const std::string nonce =
        m.id + "|" + req.precision + "|" +
        to_hex(sha256(std::string(reinterpret_cast<char*>(nonce_bytes), sizeof nonce_bytes)));
    struct Variant {
      std::string label, dist;
      double scale;
      bool fuzzed;
    };
    const std::vector<Variant> variants = {{"hidden positive lognormal", "lognormal", 1, false},
                                           {"hidden normal", "normal", 1, false},
                                           {"hidden mixed uniform", "uniform", 1, true},
                                           {"hidden large-scale uniform", "uniform", 1e3, true},
                                           {"hidden small positive", "lognormal", 1e-3, true}};
    int passed = 0, total = 0;
    std::string first_hidden_failure, first_hidden_public;
    auto note_failure = [&](const std::string& label, const ConfigOutcome& o) {
      if (!first_hidden_failure.empty()) return;
      first_hidden_failure = o.detail;
      first_hidden_public = label + ": output '" + o.failed_output + "' does not match the oracle";
    };
    // Runs one hidden case and counts it; a run failure (crash, timeout...) ends the grade.
    auto check_hidden = [&](const ConfigPlan& plan) -> MaybeFailure {
      auto o = run_config(config_, ctx, plan);
      if (o.failure) return o.failure;
      ++total;
      if (o.correct) {
        ++passed;
      } else {
        note_failure(plan.label, o);
      }
      return std::nullopt;
    };
    for (int v = 0; v < config_.hidden_variants; ++v) {
      const Variant& var = variants[static_cast<std::size_t>(v) % variants.size()];
      ConfigPlan plan;
      plan.label = var.label;
      plan.sizes =
          var.fuzzed
              ? fuzzed_sizes(m, derive_seed(key_, "submit", nonce + "|vsizes" + std::to_string(v)))
              : m.presets.at("S");
      plan.seeds = {derive_seed(key_, "submit", nonce + "|variant" + std::to_string(v))};
      plan.dist = var.dist;
      plan.scale = var.scale;
      plan.timed = false;
      plan.determinism = v == 0;
      if (auto f = check_hidden(plan)) return fail_run(*f);
    }
    for (const auto& hp : config_.hidden_presets) {
      if (hp == preset) continue;  // the public preset is timed and checked already
      ConfigPlan plan;
      plan.label = "hidden preset " + hp;
      plan.sizes = m.presets.at(hp);
      plan.seeds = {derive_seed(key_, "submit", nonce + "|preset" + hp)};
      plan.timed = false;
      if (auto f = check_hidden(plan)) return fail_run(*f);
    }
    for (int c = 0; c < config_.submit_fuzzed_configs; ++c) {
      ConfigPlan plan;
      plan.label = "hidden#" + std::to_string(c + 1);
      plan.sizes =
          fuzzed_sizes(m, derive_seed(key_, "submit", nonce + "|tsizes" + std::to_string(c)));
      for (int k = 0; k < config_.timed_calls; ++k) {
        plan.seeds.push_back(derive_seed(
            key_, "submit", nonce + "|t" + std::to_string(c) + "|call" + std::to_string(k)));
      }
      plan.warm_seed = derive_seed(key_, "submit", nonce + "|t" + std::to_string(c) + "|warm");
      plan.paired = true;
      auto o = run_config(config_, ctx, plan);
      if (o.failure) return fail_run(*o.failure);
      ++total;
      if (o.correct) {
        ++passed;
        add_timed({plan.label, plan.sizes, o.cand_ns, o.base_ns, o.judge_median_ns,
                   o.overshoot_min_ns, o.reported_median_ns});
      } else {
        note_failure(plan.label, o);
      }
    }
    r["hidden_passed"] = passed;
    r["hidden_total"] = total;
    r["max_rel_error"] = ctx.max_rel;
    if (passed != total) {
      r["hidden_correct"] = false;
      // The public draws passed but a hidden one did not: tuned to what it could see.
      const std::string head = std::to_string(total - passed) + " of " + std::to_string(total) +
                               " hidden cases failed; first: ";
      return finish("overfit", head + first_hidden_public, head + first_hidden_failure);
    }
    r["hidden_correct"] = true;
  }
  r["correct"] = true;

  // 4. Statistics per configuration; task speedup = geometric mean of the credits.
  std::vector<double> credits;
  bool suspect = false;
  std::string suspect_reason;
  double pub_ratio = 0;
  for (const auto& t : timed) {
    Credit c = credit_speedup(t.cand, t.base, config_.alpha);
    ConfigResult cr;
    cr.config = t.label;
    cr.sizes_json = sizes_json(t.sizes);
    cr.candidate_median_ns = c.cand_median;
    cr.baseline_median_ns = c.base_median;
    cr.ratio = c.ratio;
    cr.p_faster = c.p_faster;
    cr.p_slower = c.p_slower;
    cr.credit = c.credit;
    std::string why = plausibility_problem(m, p, t.sizes, c.cand_median, t.judge_median_ns,
                                           t.overshoot_min_ns, t.reported_median_ns);
    cr.suspect = c.ratio > config_.suspect_speedup || !why.empty();
    if (c.ratio > config_.suspect_speedup) {
      why = "speedup " + std::to_string(c.ratio) + " exceeds the " +
            std::to_string(config_.suspect_speedup) + "x plausibility threshold";
    }
    if (!why.empty() && !suspect) {
      suspect = true;
      suspect_reason = t.label + ": " + why;
    }
    rec.configs.push_back(cr);
    credits.push_back(c.credit);
    const bool hidden = t.label.rfind("hidden", 0) == 0;
    r["configs"].push_back({{"config", t.label},
                            {"sizes", hidden ? json("(hidden)") : json::parse(cr.sizes_json)},
                            {"candidate_median_ns", c.cand_median},
                            {"baseline_median_ns", c.base_median},
                            {"ratio", c.ratio},
                            {"p_faster", c.p_faster},
                            {"p_slower", c.p_slower},
                            {"credit", c.credit},
                            {"samples", t.cand.size()}});
    if (&t == &timed.front()) {
      pub_ratio = c.ratio;
      r["native_ns"] = c.cand_median;
      r["baseline_ns"] = c.base_median;
      r["baselines"][base] = c.base_median;
      r["p_value"] = c.p_faster;
    }
  }
  r["speedups"][base] = pub_ratio;
  r["suspect"] = suspect;
  if (suspect) {
    return finish("ok",
                  "correct; speedup not credited until reviewed (suspect): " + suspect_reason);
  }
  r["speedup"] = geomean(credits);
  return finish(
      "ok", "correct on " + std::to_string(timed.size()) + " timed configuration(s); " + protocol);
}

}  // namespace hpcab::judge
