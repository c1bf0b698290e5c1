// The sandbox every piece of submitted code runs in, at build time and at run time (SPEC §5.5):
// bubblewrap with every namespace unshared (no network, its own PID namespace), the system
// mounted read-only, a private /tmp, one writable work directory and nothing of the judge's
// state; rlimits (CPU, address space, processes, file size, open files, no core dumps); a
// wall-clock limit; and the whole tree killed at the end (the PID namespace dies with its init).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/process.h"
#include "common/result.h"

namespace hpcab::judge {

struct SandboxLimits {
  double wall_s = 120;
  double cpu_s = 600;                           // RLIMIT_CPU, summed over threads
  uint64_t address_space = uint64_t{16} << 30;  // RLIMIT_AS
  uint64_t file_size = uint64_t{1} << 30;       // RLIMIT_FSIZE
  uint64_t nproc = 512;  // RLIMIT_NPROC (per real uid: see SandboxPolicy::unprivileged_uid)
  uint64_t nofile = 256;
  std::size_t output_cap = 64 << 10;  // bytes of stdout+stderr kept
};

struct Mount {
  std::string source;  // host path
  std::string dest;    // path inside the sandbox
  bool writable = false;
};

struct SandboxSpec {
  std::vector<std::string> argv;  // paths as seen inside the sandbox
  std::vector<Mount> mounts;      // in addition to the read-only system
  std::string cwd = "/sandbox";
  std::vector<std::string> env;  // the complete environment ("NAME=value"); nothing inherited
  std::vector<int> cpus;         // CPU affinity; empty: inherit
  // >= 0: a descriptor of the caller's the program gets as fd 4 (the runner's shared draw, a
  // sealed memfd); interactive runs only. The caller keeps its own descriptor.
  int pass_fd = -1;
  SandboxLimits limits;
  // GPU grades only (docs/security.md, "GPU runs"): the GPU seccomp profile, the device nodes
  // bound into the sandbox's /dev (gpu_device_mounts), and read-only paths the runtime needs
  // besides the system (gpu_system_paths, its library's directory). A CPU sandbox has none
  // of them: its /dev is bubblewrap's minimal one.
  bool gpu = false;
  std::vector<Mount> devices;
  std::vector<std::string> gpu_paths;
};

// The device nodes a GPU runtime ("cuda" or "hip") opens, those of them that exist under
// `dev_root` (the host's /dev), each bound to the same name under the sandbox's /dev:
//   cuda: nvidiactl, nvidia-uvm, nvidia-uvm-tools, nvidia0..N
//   hip:  kfd, dri/renderD*
// Nothing else of /dev (no nvidia-modeset, no dri/card*, no other devices). Sorted.
std::vector<Mount> gpu_device_mounts(const std::string& runtime,
                                     const std::string& dev_root = "/dev");
// Read-only paths outside the system mounts the runtime reads to find its devices (PCI and
// kfd topology in sysfs), those that exist.
std::vector<std::string> gpu_system_paths(const std::string& runtime);
// What to bind read-only so the runtime library `lib` (a judge setting) loads in a sandbox
// whose host work dir is `work_dir`: nothing when it is relative or already under one of
// `system_paths` or its directory is missing (the runner then reports it cannot load it, a
// judge fault); the library's directory (it may load siblings) unless that directory is /tmp
// or holds the work dir, which would show the candidate the judge's scratch: the file alone.
std::string gpu_library_binding(const std::string& lib, const std::string& work_dir,
                                const std::vector<std::string>& system_paths);

struct SandboxPolicy {
  std::string bwrap = "bwrap";
  // Read-only system paths (symlinks, as on merged-/usr systems, are recreated as symlinks).
  // The CPU topology is there for OpenMP's OMP_PLACES=cores; it reveals nothing of the judge.
  std::vector<std::string> system_paths = {"/usr",   "/etc", "/lib",  "/lib64",
                                           "/lib32", "/bin", "/sbin", "/sys/devices/system/cpu"};
  // When the judge runs as root, sandboxed processes run as this uid/gid instead: root is exempt
  // from RLIMIT_NPROC (so a fork bomb would be unbounded) and could read root-only files.
  uid_t unprivileged_uid = 65534;
  gid_t unprivileged_gid = 65534;
  // The seccomp filter of judge/sandbox/seccomp.h on every sandboxed process.
  bool seccomp = true;
};

// The full bwrap command line for `spec` (pure; exposed for tests and logs). `seccomp_fd` >= 0
// adds `--seccomp <fd>`.
std::vector<std::string> bwrap_argv(const SandboxPolicy& policy, const SandboxSpec& spec,
                                    int seccomp_fd = -1);

// Runs to completion, capturing stdout+stderr (builds).
Result<ProcessResult> run_sandboxed(const SandboxPolicy& policy, const SandboxSpec& spec);

// An interactive sandboxed process: commands on its stdin, replies on its fd 3, its
// stdout/stderr into a capped log file. Used to drive the runner call by call.
class SandboxedProcess {
 public:
  static Result<std::unique_ptr<SandboxedProcess>> start(const SandboxPolicy& policy,
                                                         const SandboxSpec& spec,
                                                         const std::string& log_path);
  ~SandboxedProcess();  // kills the tree if still running
  SandboxedProcess(const SandboxedProcess&) = delete;
  SandboxedProcess& operator=(const SandboxedProcess&) = delete;

  Status send(const std::string& line);  // appends '\n'
  // Next reply line; an error on EOF (the process died), timeout, or an over-long line.
  Result<std::string> receive(double timeout_s);
  // Stops / continues the whole process group (paired timing: the idle side cannot run).
  void pause();
  void resume();
  // Closes stdin, waits up to `timeout_s` for exit, then kills the tree. Idempotent.
  ProcessResult finish(double timeout_s);
  // Kills the tree now (e.g. on timeout) and reaps it.
  ProcessResult kill_now();
  // stdout+stderr so far (capped).
  std::string log() const;
  pid_t pid() const { return pid_; }
  bool killed_by_us() const { return killed_by_us_; }

 private:
  SandboxedProcess() = default;
  ProcessResult reap(bool block);
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string log_path_;
  std::string pending_;  // bytes read past the last line
  bool exited_ = false, killed_by_us_ = false;
  ProcessResult result_;
  std::size_t log_cap_ = 0;
};

}  // namespace hpcab::judge
