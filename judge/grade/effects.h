// The side effects of a grade behind small interfaces (as ninja passes DiskInterface and
// CommandRunner): the grade's rules are then unit-tested with fakes in milliseconds
// (tests/judge/grader_test.cc), while judge/grade/real_effects.h wires them to bubblewrap,
// gcc, SQLite, the clocks and the OS CSPRNG for the real judge and its end-to-end tests.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/inputs.h"
#include "common/manifest.h"
#include "common/ndarray.h"
#include "common/process.h"
#include "common/result.h"
#include "judge/build/request.h"
#include "judge/runner/protocol.h"
#include "judge/sandbox/proctree.h"
#include "judge/store/records.h"

namespace hpcab::judge {

// One hpcab-runner process, driven line by line (judge/runner/protocol.h), plus what the judge
// observes of it from outside (nothing here is read from inside the sandbox's word alone).
class RunnerChannel {
 public:
  virtual ~RunnerChannel() = default;
  // Errors: Errc::kClosed when the runner is gone.
  virtual Status send(const std::string& line) = 0;
  // The next reply line. Errors: Errc::kTimeout, Errc::kClosed (EOF), Errc::kProtocol.
  virtual Result<std::string> receive(double timeout_s) = 0;
  // Stops / continues the whole process tree (paired timing: the idle side cannot run).
  virtual void pause() = 0;
  virtual void resume() = 0;
  // Waits up to `timeout_s` for a clean exit, then kills the tree; how it ended.
  virtual ProcessResult finish(double timeout_s) = 0;
  virtual ProcessResult kill_now() = 0;
  // True once the runner is blocked reading its next command (its idle state between calls),
  // or gone. Never blocks.
  virtual bool idle() = 0;
  virtual bool alive() = 0;
  // Processes in the sandbox besides its infrastructure and the runner: empty when there are
  // none, else a description. The first call identifies the runner.
  virtual Result<std::string> extra_processes() = 0;
  // The runner's threads besides its main one (state and CPU time).
  virtual std::vector<ThreadEntry> threads() = 0;
  // The outputs kept under `tag`: captured in memory (capture), or else saved by the runner
  // (post 1 <tag>). Captured outputs are handed over once.
  virtual Result<std::map<std::string, NdArray>> outputs(const std::string& tag) = 0;
  // Outputs in memory (docs/grading.md, "Outputs in memory"). The runner's layout reply says
  // where its copy-out of each output lives, told before any submitted code was loaded; this
  // records it, or says why it does not describe exactly the manifest's outputs at the
  // session's sizes (the runner's own fault: nothing of the submission had run).
  virtual Status set_layout(const std::vector<runner_protocol::OutputSlot>& slots) = 0;
  // Whether the outputs of the call that just returned can be read into the judge's memory:
  // a layout is known, the judge may read the runner's memory (ptrace rules, probed once), and
  // what this session holds in memory leaves room for one more call's outputs (a bound, the
  // judge's output_memory_bytes; beyond it the runner saves them).
  virtual bool can_capture() = 0;
  // Reads the outputs from the layout's addresses and keeps them under `tag`. A read that
  // fails (the submission unmapped its copy-out) is kept as the tag's error and returned by
  // outputs(tag), so it is attributed exactly as an unreadable saved file is.
  virtual void capture(const std::string& tag) = 0;
  // Outputs handed over by outputs(tag) and compared, given back: their memory may hold a later
  // call's capture (a DRAM-sized output read into fresh pages cost more than the call itself,
  // the kernel clearing every page first), and they no longer count against the bound of
  // can_capture. Default: dropped.
  virtual void recycle(std::map<std::string, NdArray>&& outputs) { (void)outputs; }
  // Deletes every output the runner saved. Called once per runner, after it finished and the
  // configuration's comparisons are done, never per call: what stays on disk (and in the page
  // cache, which a candidate can watch in /proc/meminfo) then never depends on which calls the
  // judge checks. Why at all: a DRAM-sized output saved on each of a part's calls kept a whole
  // grade's outputs (13 GB for tsvc_2_s000) in the page cache, and their writeback ran during later
  // timed calls of either side.
  virtual void discard_outputs() = 0;
  // After the runner reported an io fault: whether the judge itself can confirm that the
  // scratch filesystem refuses writes. The description of the confirmed fault, or nullopt (the
  // report is then the kernel's forgery or its own doing, and charged to the candidate).
  virtual std::optional<std::string> confirm_io_fault() = 0;
  // What the scheduler accounted to the runner's threads so far: CPU time and time runnable
  // but waiting for a CPU (judge/sandbox/proctree.h sched_totals). Read by the judge from outside,
  // never from the runner's word. Default: nothing known (fakes that do not model it).
  virtual SchedTotals sched() { return {}; }
  // The runner's process id as the judge sees it (outside the sandbox's pid namespace), once
  // identified (after hello); -1 when unknown or for fakes. POST /profile attaches perf to it.
  virtual pid_t runner_pid() const { return -1; }
};

// A Python module runs in hpcab-pyrunner, a shared library in hpcab-runner. The judge's own
// builds name them kernel.py and lib.so; a submitted library is never taken for a module
// (build_stage refuses a .py library).
inline bool is_python_artifact(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".py") == 0;
}

// What one runner process runs.
struct RunnerSpec {
  const Manifest* manifest = nullptr;
  Precision precision = Precision::kFp64;
  std::string role;  // "candidate", "baseline c", "oracle"
  bool candidate = false;
  std::string library;  // host path of the .so, or of a .py module (is_python_artifact)
  SymbolTable sizes;
  int64_t workspace_bytes = 0;
  std::vector<int> cpus;
  int threads = 1;
  std::string work_dir;  // the grade's scratch dir; the session gets its own subdir
  int serial = 0;        // unique per grade: names the subdir
  // GPU grades: the runtime ("cuda" or "hip"; empty for a CPU run, which gets no device node
  // and loads no GPU runtime) and the residency ("host" or "device", judge/runner/residency.h;
  // GradeRequest::residency once the request carries it).
  std::string gpu_runtime;
  std::string residency = "host";
  // >= 0: the configuration's shared draw (SharedDraw::fd), mapped read-only by the runner.
  int draw_fd = -1;
};

// One draw per call for every runner of a configuration (docs/grading.md, "One draw per
// call"): the judge generates it once into memory each runner maps read-only, instead of each
// side generating the same values. Only the judge writes it, and only while every runner that
// maps it is stopped or idle between calls.
class SharedDraw {
 public:
  virtual ~SharedDraw() = default;
  // Makes the buffer hold the draw of `spec` (a no-op when it already does).
  virtual Status fill(const DrawSpec& spec) = 0;
  // The descriptor a runner maps (RunnerSpec::draw_fd).
  virtual int fd() const = 0;
};

class RunnerLauncher {
 public:
  virtual ~RunnerLauncher() = default;
  // Starts the runner (it has not said hello yet). Errors carry the code of what failed:
  // kNoSpace / kReadOnly (staging into the scratch dir), kNotFound (the runner binary),
  // kResource (fork, pipes).
  virtual Result<std::unique_ptr<RunnerChannel>> launch(const RunnerSpec& spec) = 0;
  // A shared draw for runners of `m` at `sizes` and precision `p`, generated on `cpus` (the
  // slot's); nullptr where the launcher has none (each runner then generates its own draws).
  // An Error is the judge's fault (memory for the buffer).
  virtual Result<std::unique_ptr<SharedDraw>> shared_draw(const Manifest& m, Precision p,
                                                          const SymbolTable& sizes,
                                                          const std::vector<int>& cpus) {
    (void)m, (void)p, (void)sizes, (void)cpus;
    return std::unique_ptr<SharedDraw>();
  }
};

// Builds submissions and references (judge/build/build.h's Builder is the real one).
class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual Result<BuildResult> build(const BuildRequest& request) = 0;
};

// Where grades and baseline samples are kept (judge/store/store.h's Store is the real one).
class GradeStore {
 public:
  virtual ~GradeStore() = default;
  virtual Result<int64_t> record_submission(const SubmissionRecord& r) = 0;
  virtual Result<int64_t> record_score_call(const ScoreCallRecord& r) = 0;
  virtual Result<std::optional<BaselineSamples>> get_baseline(const BaselineKey& key) = 0;
  virtual Status put_baseline(const BaselineKey& key, const BaselineSamples& samples) = 0;
  virtual Result<std::optional<StoredCalibration>> get_calibration(const CalibrationKey& key) = 0;
  virtual Status put_calibration(const CalibrationKey& key, const StoredCalibration& c) = 0;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual double now_unix() = 0;       // wall time, seconds (records, baseline age)
  virtual int64_t monotonic_ns() = 0;  // the judge's view of calls
  // Lets the runner run (waiting for it to go idle or its threads to settle): a short sleep.
  virtual void pause_us(int us) = 0;
  // Bracket the judge's watch of one exchange with a runner (from sending "go" or "ping" until
  // the runner is seen idle). While a watch is open the watching thread should get a CPU as
  // soon as it wakes, ahead of the runner's own threads: an honest OpenMP pool spins on every
  // CPU of the slot after a parallel call, and a judge thread queued behind it saw calls late
  // by up to ~2 ms, which the clock audit charged to the candidate. Default: no boost (fakes).
  virtual void begin_watch() {}
  virtual void end_watch() {}
  // Whether begin_watch really boosts the watcher (reported with each grade's rules).
  virtual bool watch_boosted() const { return false; }
};

// The CPUs of a slot as the kernel accounts them, summed over `cpus`: seconds stolen by the
// hypervisor and all seconds (every state, steal and idle included), so steal_s / total_s over an
// interval is the share of the slot the host took away (judge/grade/slot_watch.h reads /proc/stat);
// and the CPU seconds the judge's own process has used, all its threads (the watcher of the
// calls among them): the most of the runners' waiting that the judge itself can have caused.
struct CpuAccount {
  double steal_s = 0;
  double total_s = 0;
  double judge_s = 0;
};

class SlotMonitor {
 public:
  virtual ~SlotMonitor() = default;
  virtual CpuAccount account(const std::vector<int>& cpus) = 0;
};

class Entropy {
 public:
  virtual ~Entropy() = default;
  // Unpredictable bytes (the /submit nonce, which calls are checked).
  virtual void fill(void* out, std::size_t n) = 0;
};

// The judge's scratch space for grade and baseline work dirs.
class ScratchFs {
 public:
  virtual ~ScratchFs() = default;
  // A fresh private dir whose name starts with `prefix`. Errors carry kNoSpace / kReadOnly.
  virtual Result<std::string> make_dir(const std::string& prefix) = 0;
  virtual void remove(const std::string& dir) = 0;
  // A file's bytes (reference sources, a submitted library for its content hash).
  virtual Result<std::string> read(const std::string& path) = 0;
};

// Everything a Grader touches outside its own memory. Not owned.
struct GradeEffects {
  RunnerLauncher* launcher = nullptr;
  Compiler* compiler = nullptr;
  GradeStore* store = nullptr;
  Clock* clock = nullptr;
  Entropy* entropy = nullptr;
  ScratchFs* scratch = nullptr;
  SlotMonitor* slots = nullptr;  // none: the slot is not watched (JudgeConfig::slot_wait_max)
};

}  // namespace hpcab::judge
