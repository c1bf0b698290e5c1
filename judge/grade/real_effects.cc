#include "judge/grade/real_effects.h"

#include <openssl/rand.h>
#include <sched.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "common/inputs.h"
#include "common/manifest.h"
#include "common/npy.h"
#include "judge/grade/memfd_draw.h"
#include "judge/sandbox/proctree.h"
#include "judge/sandbox/sandbox.h"

namespace hpcab::judge {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRunnerInside = "/opt/hpcab/hpcab-runner";
constexpr const char* kPyRunnerInside = "/opt/hpcab/hpcab-pyrunner";

std::string sizes_arg(const SymbolTable& sizes) {
  std::string s;
  for (const auto& [k, v] : sizes) s += (s.empty() ? "" : ",") + k + "=" + std::to_string(v);
  return s;
}

Error fs_error(const std::string& what, const std::error_code& ec) {
  return Error{what + ": " + ec.message(), errc_from_errno(ec.value())};
}

// Reads `n` bytes at `address` of process `pid` into `dst` (process_vm_readv, which follows
// the ptrace access rules and never the target's cooperation). A partial read is retried from
// where it stopped; a read that makes no progress is an error.
Status read_process_memory(pid_t pid, uint64_t address, void* dst, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    iovec local{static_cast<char*>(dst) + done, n - done};
    iovec remote{reinterpret_cast<void*>(static_cast<uintptr_t>(address + done)), n - done};
    const ssize_t r = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      const int e = r < 0 ? errno : EFAULT;
      return Error{
          "reading " + std::to_string(n) + " bytes of the runner's memory: " + std::strerror(e),
          errc_from_errno(e)};
    }
    done += static_cast<std::size_t>(r);
  }
  return Ok{};
}

class SandboxRunnerChannel : public RunnerChannel {
 public:
  SandboxRunnerChannel(std::unique_ptr<SandboxedProcess> proc, fs::path dir, uint64_t out_bytes,
                       const Manifest* m, SymbolTable sizes, Precision precision,
                       uint64_t memory_bytes)
      : proc_(std::move(proc)),
        dir_(std::move(dir)),
        out_bytes_(out_bytes),
        m_(m),
        sizes_(std::move(sizes)),
        precision_(precision),
        memory_bytes_(memory_bytes) {}

  ~SandboxRunnerChannel() override {
    if (runner_pidfd_ >= 0) ::close(runner_pidfd_);
  }
  SandboxRunnerChannel(const SandboxRunnerChannel&) = delete;
  SandboxRunnerChannel& operator=(const SandboxRunnerChannel&) = delete;

  Status send(const std::string& line) override { return proc_->send(line); }
  Result<std::string> receive(double timeout_s) override { return proc_->receive(timeout_s); }
  void pause() override { proc_->pause(); }
  void resume() override { proc_->resume(); }
  ProcessResult finish(double timeout_s) override { return proc_->finish(timeout_s); }
  ProcessResult kill_now() override { return proc_->kill_now(); }

  bool idle() override {
    if (runner_pid_ <= 0) return true;
    return waiting_on_read(runner_pid_, 0);
  }
  bool alive() override { return runner_pid_ > 0 && ::kill(runner_pid_, 0) == 0; }
  pid_t runner_pid() const override { return runner_pid_; }

  // Processes in the sandbox besides bubblewrap's own and the runner, read from /proc: a kernel
  // cannot hide a helper it forked (setsid or a double fork only re-parent it to the
  // namespace's init, still below the launch). The first call, right after hello, identifies
  // bwrap's chain (its monitor, the namespace's init) and the runner below it.
  Result<std::string> extra_processes() override {
    std::vector<ProcEntry> all = descendants(proc_->pid());
    if (runner_pid_ < 0) {
      pid_t top = proc_->pid();
      for (;;) {
        std::vector<const ProcEntry*> kids;
        for (const auto& e : all) {
          if (e.ppid == top) kids.push_back(&e);
        }
        if (kids.size() != 1) break;
        if (kids[0]->comm == "bwrap") {
          top = kids[0]->pid;
          infrastructure_.insert(top);
          continue;
        }
        runner_pid_ = kids[0]->pid;
        // Holds the runner's identity for the memory reads (capture): a pid alone could be
        // recycled once the runner is gone, a pidfd cannot.
        runner_pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, runner_pid_, 0));
        break;
      }
      if (runner_pid_ < 0) {
        return Error{"cannot identify the runner among " + std::to_string(all.size()) +
                         " sandbox process(es)",
                     Errc::kProtocol};
      }
    }
    std::string extra;
    int n = 0;
    for (const auto& e : all) {
      if (e.pid == runner_pid_ || infrastructure_.count(e.pid) || e.state == 'Z') continue;
      if (n++ < 3) extra += (extra.empty() ? "'" : ", '") + e.comm + "'";
    }
    if (n == 0) return std::string();
    return std::to_string(n) + " process(es) besides the runner (" + extra + ")";
  }

  std::vector<ThreadEntry> threads() override {
    if (runner_pid_ <= 0) return {};
    return other_threads(runner_pid_);
  }

  SchedTotals sched() override {
    if (runner_pid_ <= 0) return {};
    return sched_totals(runner_pid_);
  }

  Result<std::map<std::string, NdArray>> outputs(const std::string& tag) override {
    if (auto it = captured_.find(tag); it != captured_.end()) {
      auto taken = std::move(it->second);
      captured_.erase(it);
      return taken;
    }
    std::map<std::string, NdArray> out;
    for (const auto& a : m_->arrays) {
      if (!a.is_output()) continue;
      auto arr = read_npy((dir_ / "out" / tag / (a.name + ".npy")).string());
      if (!arr) return arr.error();
      out.emplace(a.name, std::move(*arr));
    }
    return out;
  }

  Status set_layout(const std::vector<runner_protocol::OutputSlot>& slots) override {
    const SymbolTable symbols = m_->symbols(sizes_);
    std::vector<Slot> layout;
    for (const auto& a : m_->arrays) {
      if (!a.is_output()) continue;
      auto shape = shape_of(a, symbols);
      if (!shape) return shape.error();
      uint64_t bytes = dtype_size(a.dtype(precision_));
      for (int64_t e : *shape) bytes *= static_cast<uint64_t>(e);
      Slot slot{a.name, 0, bytes, a.dtype(precision_), std::move(*shape)};
      int found = 0;
      for (const auto& s : slots) {
        if (s.name != a.name) continue;
        ++found;
        if (s.bytes != bytes) {
          return Error{"the layout gives output '" + a.name + "' " + std::to_string(s.bytes) +
                           " bytes, not " + std::to_string(bytes),
                       Errc::kProtocol};
        }
        slot.address = s.address;
      }
      if (found != 1) {
        return Error{"the layout names output '" + a.name + "' " + std::to_string(found) + " times",
                     Errc::kProtocol};
      }
      layout.push_back(std::move(slot));
    }
    if (layout.size() != slots.size()) {
      return Error{"the layout names " + std::to_string(slots.size()) + " arrays for " +
                       std::to_string(layout.size()) + " outputs",
                   Errc::kProtocol};
    }
    layout_ = std::move(layout);
    return Ok{};
  }

  bool can_capture() override {
    if (layout_.empty() || runner_pid_ <= 0 || memory_bytes_ == 0) return false;
    if (held_bytes_ + out_bytes_ > memory_bytes_) return false;
    if (readable_ == 0) {
      // Once per session: a judge without the right to read its runners' memory (a Yama
      // ptrace_scope of 2 or more for an unprivileged judge) keeps saving them to files. A
      // submission that made the probe fail only chose the file path for itself.
      unsigned char byte = 0;
      const Slot* first = nullptr;
      for (const auto& s : layout_) {
        if (s.bytes > 0) first = &s;
      }
      Status st = first == nullptr ? Status{Ok{}}
                                   : read_process_memory(runner_pid_, first->address, &byte, 1);
      readable_ = st ? 1 : -1;
      // EPERM (kReadOnly) is the judge's own standing; a fault (EFAULT) the submission's doing.
      static std::atomic<bool> warned{false};
      if (!st && st.error().code == Errc::kReadOnly && !warned.exchange(true)) {
        spdlog::warn("outputs in memory unavailable, runners save them to files ({})",
                     st.error().message);
      }
    }
    return readable_ > 0;
  }

  void capture(const std::string& tag) override {
    std::map<std::string, NdArray> out;
    for (const auto& s : layout_) {
      NdArray a = take_spare(s);
      if (auto st = read_process_memory(runner_pid_, s.address, a.data(), a.nbytes()); !st) {
        captured_.insert_or_assign(tag, Result<std::map<std::string, NdArray>>(st.error()));
        return;
      }
      out.emplace(s.name, std::move(a));
    }
    // Still alive after the reads, so the pid named this runner throughout them (without
    // pidfds, kernels before 5.3, the pid is trusted as everywhere else here).
    if (runner_pidfd_ >= 0 && syscall(SYS_pidfd_send_signal, runner_pidfd_, 0, nullptr, 0) != 0) {
      captured_.insert_or_assign(
          tag, Result<std::map<std::string, NdArray>>(
                   Error{"the runner ended while its outputs were read", Errc::kClosed}));
      return;
    }
    held_bytes_ += out_bytes_;
    captured_.insert_or_assign(tag, Result<std::map<std::string, NdArray>>(std::move(out)));
  }

  void recycle(std::map<std::string, NdArray>&& outputs) override {
    uint64_t bytes = 0;
    for (auto& [name, a] : outputs) {
      bytes += a.nbytes();
      spare_.insert_or_assign(name, std::move(a));
    }
    held_bytes_ -= std::min(held_bytes_, bytes);
  }

  void discard_outputs() override {
    captured_.clear();
    spare_.clear();
    held_bytes_ = 0;
    std::error_code ec;
    fs::remove_all(dir_ / "out", ec);  // best effort: the grade's scratch dir goes at its end
  }

  // statvfs, not a probe write: the judge may run as root, and root may write into blocks
  // reserved for it where the sandbox's unprivileged uid could not. Full means less room than
  // one call's outputs plus a margin (a failed write removes its partial file, so the space
  // the failed write needed is free again by now).
  std::optional<std::string> confirm_io_fault() override {
    struct statvfs st {};
    if (statvfs(dir_.c_str(), &st) != 0) {
      return std::string("statvfs ") + dir_.string() + ": " + std::strerror(errno);
    }
    if (st.f_flag & ST_RDONLY) return dir_.string() + " is on a read-only filesystem";
    const uint64_t avail = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
    const uint64_t margin = uint64_t{16} << 20;
    if (avail < out_bytes_ + margin) {
      return std::to_string(avail >> 10) + " KiB free in " + dir_.string() + ", one call's " +
             "outputs need " + std::to_string(out_bytes_ >> 10) + " KiB";
    }
    return std::nullopt;
  }

 private:
  std::unique_ptr<SandboxedProcess> proc_;
  fs::path dir_;
  uint64_t out_bytes_;
  const Manifest* m_;
  SymbolTable sizes_;
  Precision precision_;
  uint64_t memory_bytes_;  // JudgeConfig::output_memory_bytes
  pid_t runner_pid_ = -1;
  int runner_pidfd_ = -1;
  std::set<pid_t> infrastructure_;
  struct Slot {
    std::string name;
    uint64_t address;
    uint64_t bytes;
    DType dtype;
    std::vector<int64_t> shape;
  };
  // A recycled array of the slot's dtype and shape, else a new one. Every byte of it is
  // overwritten by the read, so a recycled array needs no clearing.
  NdArray take_spare(const Slot& s) {
    auto it = spare_.find(s.name);
    if (it != spare_.end() && it->second.dtype() == s.dtype && it->second.shape() == s.shape) {
      NdArray a = std::move(it->second);
      spare_.erase(it);
      return a;
    }
    return NdArray::uninitialized(s.dtype, s.shape);
  }

  std::vector<Slot> layout_;  // the manifest's outputs, where the runner keeps their copy-out
  int readable_ = 0;          // 0: not probed yet; 1: the judge may read the runner's memory
  uint64_t held_bytes_ = 0;   // captured so far (handed-over outputs still count)
  std::map<std::string, Result<std::map<std::string, NdArray>>> captured_;
  std::map<std::string, NdArray> spare_;  // recycled outputs, one per output name
};

// The session dir: the library and the manifest (the loader checks folder == id), so the
// corpus directory is never mounted and its permissions do not matter. Readable by the
// sandbox's unprivileged uid whatever the judge's umask.
Status stage(const RunnerSpec& spec, const fs::path& dir) {
  std::error_code ec;
  const Manifest& m = *spec.manifest;
  const auto readable = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
  fs::create_directories(dir / "out", ec);
  if (ec) return fs_error("cannot create " + (dir / "out").string(), ec);
  fs::create_directories(dir / m.id, ec);
  if (ec) return fs_error("cannot create " + (dir / m.id).string(), ec);
  for (const auto& d : {dir, dir / "out", dir / m.id}) {
    fs::permissions(d, fs::perms::all, ec);
    if (ec) return fs_error("cannot open up " + d.string(), ec);
  }
  const char* staged = is_python_artifact(spec.library) ? "kernel.py" : "lib.so";
  fs::copy_file(spec.library, dir / staged, fs::copy_options::overwrite_existing, ec);
  if (ec) return fs_error("cannot stage " + spec.library, ec);
  fs::permissions(dir / staged, readable, ec);
  fs::copy_file(m.dir / "kernel.json", dir / m.id / "kernel.json",
                fs::copy_options::overwrite_existing, ec);
  if (ec) return fs_error("cannot stage the manifest", ec);
  fs::permissions(dir / m.id / "kernel.json", readable, ec);
  return Ok{};
}

}  // namespace

Result<std::unique_ptr<RunnerChannel>> SandboxRunnerLauncher::launch(const RunnerSpec& spec) {
  const JudgeConfig& cfg = config_;
  const bool python = is_python_artifact(spec.library);
  const std::string& runner = python ? cfg.pyrunner_path : cfg.runner_path;
  if (::access(runner.c_str(), X_OK) != 0) {
    return Error{
        "the runner binary " + runner + " is missing or not executable: " + std::strerror(errno),
        Errc::kNotFound};
  }
  const fs::path dir = fs::path(spec.work_dir) / ("s" + std::to_string(spec.serial));
  if (auto st = stage(spec, dir); !st) return st.error();
  const Manifest& m = *spec.manifest;
  SandboxSpec sb;
  const std::string kernel_dir = "/sandbox/" + m.id;
  sb.argv = {python ? kPyRunnerInside : kRunnerInside,
             "--manifest",
             kernel_dir + "/kernel.json",
             python ? "--module" : "--lib",
             python ? "/sandbox/kernel.py" : "/sandbox/lib.so",
             "--precision",
             std::string(precision_name(spec.precision)),
             "--sizes",
             sizes_arg(spec.sizes),
             "--workspace-bytes",
             std::to_string(spec.workspace_bytes),
             "--out-dir",
             "/sandbox/out",
             "--gen-threads",
             spec.candidate ? "1" : "0"};
  if (python) sb.argv.insert(sb.argv.end(), {"--function", m.id});
  if (spec.draw_fd >= 0) sb.argv.insert(sb.argv.end(), {"--draw-fd", "4"});
  sb.pass_fd = spec.draw_fd;
  const bool gpu = !spec.gpu_runtime.empty();
  if (gpu && python) {
    return Error{"a GPU grade runs a C-ABI library, not a Python module", Errc::kInvalid};
  }
  sb.mounts = {{dir.string(), "/sandbox", true},
               {runner, python ? kPyRunnerInside : kRunnerInside, false}};
  const std::string threads = std::to_string(spec.threads);
  sb.env = {"PATH=/usr/bin:/bin",         "HOME=/tmp",           "TMPDIR=/tmp",     "LANG=C",
            "OMP_NUM_THREADS=" + threads, "OMP_PROC_BIND=close", "OMP_PLACES=cores"};
  if (python) {
    // NumPy's BLAS and Numba's thread pool get the side's threads as OpenMP code does. Numba's
    // cache, if a kernel asks for one, lands in the sandbox's private /tmp and dies with it.
    sb.env.insert(sb.env.end(), {"OPENBLAS_NUM_THREADS=" + threads, "NUMBA_NUM_THREADS=" + threads,
                                 "NUMBA_CACHE_DIR=/tmp/numba", "PYTHONDONTWRITEBYTECODE=1"});
    // A host whose CPU this OpenBLAS misdetects (wrong results or a crash) is told which core
    // kernel to use through the judge's own environment; every side gets the same.
    for (const char* name : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"}) {
      if (const char* v = std::getenv(name)) sb.env.push_back(std::string(name) + "=" + v);
    }
  }
  if (gpu) {
    // The device side of the runner (docs/security.md, "GPU runs"): the runtime it dlopen()s,
    // the device nodes that runtime opens and nothing else of /dev, the sysfs topology it
    // reads, and the GPU seccomp profile.
    if (spec.gpu_runtime != "cuda" && spec.gpu_runtime != "hip") {
      return Error{"unknown GPU runtime '" + spec.gpu_runtime + "'", Errc::kInvalid};
    }
    const std::string& lib =
        spec.gpu_runtime == "cuda" ? cfg.cuda_runtime_lib : cfg.hip_runtime_lib;
    sb.argv.insert(sb.argv.end(),
                   {"--gpu", spec.gpu_runtime, "--gpu-lib", lib, "--gpu-index",
                    std::to_string(cfg.gpu_device_index), "--residency", spec.residency,
                    "--device-idle-ns", std::to_string(cfg.device_idle_ns)});
    sb.gpu = true;
    sb.devices = gpu_device_mounts(spec.gpu_runtime, cfg.gpu_device_root);
    sb.gpu_paths = gpu_system_paths(spec.gpu_runtime);
    const std::string bind =
        gpu_library_binding(lib, spec.work_dir, cfg.sandbox_policy().system_paths);
    if (!bind.empty()) sb.gpu_paths.push_back(bind);
  }
  sb.cpus = spec.cpus;
  sb.limits.wall_s = cfg.runner_wall_s;
  sb.limits.cpu_s = cfg.runner_cpu_s;
  sb.limits.address_space = cfg.memory_bytes;
  // The GPU runtimes reserve address space for the device's memory at start-up.
  if (gpu) {
    sb.limits.address_space =
        cfg.gpu_address_space_bytes == 0 ? RLIM_INFINITY : cfg.gpu_address_space_bytes;
  }
  // The runner saves every output array under /sandbox/out, and the judge admits sizes whose
  // arrays fit the data budget (a quarter of memory_bytes), so one output file may be that large
  // (gemver's A at M is 2 GB): RLIMIT_FSIZE must not turn the judge's own save into the
  // candidate's crash (SIGXFSZ).
  sb.limits.file_size = std::max(sb.limits.file_size, data_budget(cfg.memory_bytes));
  sb.limits.nproc = cfg.sandbox_nproc;
  sb.limits.output_cap = cfg.run_log_cap;
  auto proc = SandboxedProcess::start(cfg.sandbox_policy(), sb, (dir / "log.txt").string());
  if (!proc) return proc.error();
  // Short sleeps while waiting for the runner must stay short (the default 50 us timer slack
  // would dominate them).
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  // Unknown (an extent that does not evaluate) counts as none: the io-fault check then asks
  // only for the margin.
  const auto out = output_bytes(m, spec.sizes, spec.precision);
  return std::unique_ptr<RunnerChannel>(
      std::make_unique<SandboxRunnerChannel>(std::move(*proc), dir, out ? *out : 0, &m, spec.sizes,
                                             spec.precision, cfg.output_memory_bytes));
}

Result<std::unique_ptr<SharedDraw>> SandboxRunnerLauncher::shared_draw(
    const Manifest& m, Precision p, const SymbolTable& sizes, const std::vector<int>& cpus) {
  if (!config_.shared_draw) return std::unique_ptr<SharedDraw>();
  return make_memfd_draw(m, p, sizes, cpus);
}

double SystemClock::now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

int64_t SystemClock::monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {

// The calling thread only (Linux applies sched_setscheduler(0) to the caller, not the process).
// SCHED_RESET_ON_FORK: nothing this thread starts while boosted inherits the real-time class.
// Off again, the thread is exactly as before (SCHED_OTHER, no reset-on-fork flag).
bool set_realtime(bool on) {
  sched_param p{};
  p.sched_priority = on ? 1 : 0;
  return sched_setscheduler(0, on ? SCHED_FIFO | SCHED_RESET_ON_FORK : SCHED_OTHER, &p) == 0;
}

}  // namespace

SystemClock::SystemClock(bool realtime_watch) {
  if (!realtime_watch) return;
  boost_ = set_realtime(true);
  const int why = errno;
  set_realtime(false);
  if (!boost_) {
    spdlog::warn(
        "realtime_observer: cannot raise the judge's watching thread to SCHED_FIFO ({}); calls "
        "are watched at normal priority, and an honest parallel candidate's spinning threads "
        "can delay the clock audit's view of its calls (run the judge as root, with "
        "CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 1)",
        std::strerror(why));
  }
}

// Security: the boosted thread never spins. It blocks in poll() on the runner's reply and then
// polls /proc with sleeps (pause_us), bounded by the call timeout, so a hostile runner that
// never goes idle costs the machine a wake-up per 20 us, not a CPU.
void SystemClock::begin_watch() {
  if (boost_) set_realtime(true);
}

void SystemClock::end_watch() {
  if (boost_) set_realtime(false);
}

// Never spins: the runner may share this thread's CPU.
void SystemClock::pause_us(int us) {
  if (us <= 0) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(us));
  }
}

void OsEntropy::fill(void* out, std::size_t n) {
  if (RAND_bytes(static_cast<unsigned char*>(out), static_cast<int>(n)) != 1) {
    // The OS CSPRNG failing is unrecoverable for a judge whose secrecy rests on it.
    std::abort();
  }
}

Result<std::string> DiskScratch::make_dir(const std::string& prefix) {
  std::string tmpl = (fs::path(root_) / (prefix + "-XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    const int e = errno;
    return Error{"cannot create a scratch dir in " + root_ + ": " + std::strerror(e),
                 errc_from_errno(e)};
  }
  std::error_code ec;
  fs::permissions(tmpl, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec, ec);
  if (ec) return fs_error("cannot set permissions on " + tmpl, ec);
  return tmpl;
}

void DiskScratch::remove(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
}

Result<std::string> DiskScratch::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read " + path, Errc::kNotFound};
  return std::string(std::istreambuf_iterator<char>(in), {});
}

RealEffects::RealEffects(const JudgeConfig& config, Store* s, Builder* builder)
    : launcher(config),
      compiler(builder),
      store(s),
      clock(config.realtime_observer),
      scratch(config.scratch_dir) {}

GradeEffects RealEffects::effects() {
  return GradeEffects{&launcher, &compiler, &store, &clock, &entropy, &scratch, &slots};
}

}  // namespace hpcab::judge
