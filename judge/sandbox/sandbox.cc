#include "judge/sandbox/sandbox.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "judge/sandbox/seccomp.h"

namespace hpcab::judge {

namespace fs = std::filesystem;

std::vector<std::string> bwrap_argv(const SandboxPolicy& policy, const SandboxSpec& spec,
                                    int seccomp_fd) {
  std::vector<std::string> a = {policy.bwrap,
                                "--unshare-all",  // ipc, pid, net, uts, cgroup (user: try)
                                "--unshare-user",   "--die-with-parent",
                                "--disable-userns",  // no nested namespaces from inside
                                "--hostname",       "sandbox",           "--clearenv"};
  if (geteuid() == 0) a.insert(a.end(), {"--cap-drop", "ALL"});
  for (const auto& p : policy.system_paths) {
    std::error_code ec;
    auto st = fs::symlink_status(p, ec);
    if (ec || !fs::exists(st)) continue;
    if (fs::is_symlink(st)) {
      a.insert(a.end(), {"--symlink", fs::read_symlink(p, ec).string(), p});
    } else {
      a.insert(a.end(), {"--ro-bind", p, p});
    }
  }
  a.insert(a.end(), {"--proc", "/proc", "--dev", "/dev"});
  a.insert(a.end(), {"--tmpfs", "/tmp"});
  // After the private /tmp, so that a runtime the judge is configured with is reachable
  // wherever it lives (a build or an install under /tmp included); read-only, and chosen by
  // the judge's configuration, never by the submission.
  if (spec.gpu) {
    for (const auto& d : spec.devices) a.insert(a.end(), {"--dev-bind", d.source, d.dest});
    for (const auto& p : spec.gpu_paths) a.insert(a.end(), {"--ro-bind", p, p});
  }
  a.insert(a.end(), {"--dir", spec.cwd});
  for (const auto& m : spec.mounts) {
    a.insert(a.end(), {m.writable ? "--bind" : "--ro-bind", m.source, m.dest});
  }
  for (const auto& e : spec.env) {
    auto eq = e.find('=');
    a.insert(a.end(),
             {"--setenv", e.substr(0, eq), eq == std::string::npos ? "" : e.substr(eq + 1)});
  }
  if (seccomp_fd >= 0) a.insert(a.end(), {"--seccomp", std::to_string(seccomp_fd)});
  a.insert(a.end(), {"--chdir", spec.cwd, "--"});
  a.insert(a.end(), spec.argv.begin(), spec.argv.end());
  return a;
}

std::vector<Mount> gpu_device_mounts(const std::string& runtime, const std::string& dev_root) {
  std::vector<std::string> names;
  std::error_code ec;
  auto exists = [&](const std::string& rel) { return fs::exists(fs::path(dev_root) / rel, ec); };
  auto numbered = [](const std::string& name, const std::string& prefix) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
    return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
  };
  auto scan = [&](const std::string& dir, const std::string& prefix) {
    const fs::path d = dir.empty() ? fs::path(dev_root) : fs::path(dev_root) / dir;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string n = it->path().filename().string();
      if (numbered(n, prefix)) names.push_back(dir.empty() ? n : dir + "/" + n);
    }
  };
  if (runtime == "cuda") {
    for (const char* n : {"nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"}) {
      if (exists(n)) names.push_back(n);
    }
    scan("", "nvidia");
  } else if (runtime == "hip") {
    if (exists("kfd")) names.push_back("kfd");
    scan("dri", "renderD");
  }
  std::sort(names.begin(), names.end());
  std::vector<Mount> out;
  for (const auto& n : names) {
    out.push_back({(fs::path(dev_root) / n).string(), "/dev/" + n, true});
  }
  return out;
}

std::vector<std::string> gpu_system_paths(const std::string& runtime) {
  std::vector<std::string> candidates;
  if (runtime == "cuda") {
    // The driver's /proc/driver/nvidia is in the sandbox's own procfs already.
    candidates = {"/sys/devices", "/sys/bus/pci"};
  } else if (runtime == "hip") {
    candidates = {"/sys/devices", "/sys/bus/pci", "/sys/class/kfd", "/sys/class/drm", "/opt/rocm"};
  }
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& p : candidates) {
    if (fs::exists(p, ec)) out.push_back(p);
  }
  return out;
}

std::string gpu_library_binding(const std::string& lib, const std::string& work_dir,
                                const std::vector<std::string>& system_paths) {
  const fs::path lib_dir = fs::path(lib).parent_path();
  if (!fs::path(lib).is_absolute() || lib_dir.empty()) return "";
  for (const auto& p : system_paths) {
    if (lib_dir.string() == p || lib_dir.string().rfind(p + "/", 0) == 0) return "";
  }
  std::error_code ec;
  if (!fs::is_directory(lib_dir, ec)) return "";
  const fs::path dir = fs::weakly_canonical(lib_dir, ec);
  if (ec) return lib;
  const fs::path work = fs::weakly_canonical(work_dir, ec);
  const fs::path rel = ec ? fs::path() : work.lexically_relative(dir);
  const bool holds_work = !rel.empty() && *rel.begin() != "..";
  return holds_work || dir == "/tmp" || dir == "/" ? lib : lib_dir.string();
}

namespace {

// Everything the child needs, prepared before fork: after fork only async-signal-safe calls.
struct ChildPlan {
  std::vector<std::string> argv_store;
  std::vector<char*> argv;
  rlimit limits[6];
  int resources[6] = {RLIMIT_CPU,   RLIMIT_AS,     RLIMIT_FSIZE,
                      RLIMIT_NPROC, RLIMIT_NOFILE, RLIMIT_CORE};
  cpu_set_t cpus;
  bool set_cpus = false;
  bool drop = false;
  uid_t uid = 0;
  gid_t gid = 0;
  int seccomp_fd = -1;    // owned; closed by the parent after fork
  pid_t parent = 0;       // the judge; the child gives up if it is already gone
  bool keep_fd3 = false;  // the interactive reply channel
  int pass_fd = -1;       // owned copy (>= 64) of SandboxSpec::pass_fd, for fd 4; closed after fork
  std::string error;      // non-empty: the plan could not be made
  ChildPlan() = default;
  ChildPlan(const ChildPlan&) = delete;
  ChildPlan& operator=(const ChildPlan&) = delete;
  ~ChildPlan() {
    if (seccomp_fd >= 0) close(seccomp_fd);
    if (pass_fd >= 0) close(pass_fd);
  }
};

void make_plan(const SandboxPolicy& policy, const SandboxSpec& spec, ChildPlan& p) {
  if (policy.seccomp) {
    auto fd = seccomp_program_fd(spec.gpu ? SeccompProfile::kGpu : SeccompProfile::kCpu);
    if (!fd) {
      p.error = fd.error().message;
      return;
    }
    // Keep it clear of the low descriptors the child rearranges (0-3: stdin, stdout, stderr,
    // the reply channel), or a dup2 there would replace the program bwrap is told to read.
    p.seccomp_fd = fcntl(*fd, F_DUPFD_CLOEXEC, 64);
    close(*fd);
    if (p.seccomp_fd < 0) {
      p.error = "seccomp: cannot move the program fd";
      return;
    }
  }
  if (spec.pass_fd >= 0) {
    // Above the low descriptors the child rearranges, like the seccomp program's: dup2 onto 4
    // then clears close-on-exec whatever number the caller's descriptor had.
    p.pass_fd = fcntl(spec.pass_fd, F_DUPFD_CLOEXEC, 64);
    if (p.pass_fd < 0) {
      p.error = std::string("cannot duplicate the descriptor passed to the sandbox: ") +
                std::strerror(errno);
      return;
    }
  }
  p.argv_store = bwrap_argv(policy, spec, p.seccomp_fd);
  for (auto& s : p.argv_store) p.argv.push_back(s.data());
  p.argv.push_back(nullptr);
  auto lim = [](uint64_t v) { return rlimit{v, v}; };
  const auto cpu = static_cast<uint64_t>(std::ceil(spec.limits.cpu_s));
  p.limits[0] = lim(cpu);
  p.limits[1] = lim(spec.limits.address_space);
  p.limits[2] = lim(spec.limits.file_size);
  p.limits[3] = lim(spec.limits.nproc);
  p.limits[4] = lim(spec.limits.nofile);
  p.limits[5] = lim(0);
  CPU_ZERO(&p.cpus);
  for (int c : spec.cpus) CPU_SET(c, &p.cpus);
  p.set_cpus = !spec.cpus.empty();
  p.drop = geteuid() == 0;
  p.uid = policy.unprivileged_uid;
  p.gid = policy.unprivileged_gid;
  p.parent = getpid();
}

[[noreturn]] void child_fail(const char* what) {
  // stderr is already the log or the capture pipe.
  const char prefix[] = "hpcab sandbox setup failed: ";
  ssize_t ignored = write(2, prefix, sizeof prefix - 1);
  ignored = write(2, what, std::strlen(what));
  ignored = write(2, "\n", 1);
  (void)ignored;
  _exit(125);
}

// In the forked child: a new session (no controlling terminal to inject keystrokes into, and a
// process group the judge can stop and kill as one), limits, affinity, privileges, exec.
[[noreturn]] void exec_child(ChildPlan& p) {
  if (setsid() < 0) child_fail("setsid");
  // Only what the sandbox is meant to have crosses exec: stdin, stdout, stderr, the reply
  // channel and the passed descriptor (interactive runs) and the seccomp program. Everything else
  // the judge had open at fork time goes, whatever its close-on-exec flag: other threads open
  // descriptors concurrently, and Asio's sockets are not close-on-exec. An inherited listening
  // socket would let submitted code accept the judge's own clients and answer them with forged
  // verdicts.
  {
    const unsigned first = p.keep_fd3 ? (p.pass_fd >= 0 ? 5 : 4) : 3;
    auto close_from_to = [](unsigned lo, unsigned hi) {
      if (lo > hi) return;
      if (close_range(lo, hi, 0) != 0) {
        for (unsigned fd = lo; fd <= hi && fd < 65536; ++fd) close(static_cast<int>(fd));
      }
    };
    if (p.seccomp_fd >= 0) {
      close_from_to(first, static_cast<unsigned>(p.seccomp_fd) - 1);
      close_from_to(static_cast<unsigned>(p.seccomp_fd) + 1, ~0U);
    } else {
      close_from_to(first, ~0U);
    }
  }
  // The seccomp program is the one fd meant to survive exec (bwrap reads it).
  if (p.seccomp_fd >= 0 && fcntl(p.seccomp_fd, F_SETFD, 0) != 0) child_fail("seccomp fd");
  for (int i = 0; i < 6; ++i) {
    if (setrlimit(p.resources[i], &p.limits[i]) != 0) child_fail("setrlimit");
  }
  if (p.set_cpus && sched_setaffinity(0, sizeof p.cpus, &p.cpus) != 0) {
    child_fail("sched_setaffinity");
  }
  if (p.drop) {
    if (setgroups(0, nullptr) != 0 || setgid(p.gid) != 0 || setuid(p.uid) != 0) {
      child_fail("dropping to the unprivileged uid");
    }
  }
  // bwrap's --die-with-parent arms the parent-death signal only once bwrap runs; arm it from
  // fork on (after the uid change, which clears it) and close the window in which the judge
  // was SIGKILLed before that: an orphan must not go on to build or run anything.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail("prctl(PR_SET_PDEATHSIG)");
  if (getppid() != p.parent) _exit(125);
  char* envp[] = {const_cast<char*>("PATH=/usr/bin:/bin"), nullptr};
  execvpe(p.argv[0], p.argv.data(), envp);
  child_fail("exec bwrap (is bubblewrap installed?)");
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

std::string read_capped(const std::string& path, std::size_t cap) {
  std::ifstream in(path, std::ios::binary);
  std::string s(cap, '\0');
  in.read(s.data(), static_cast<std::streamsize>(cap));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

}  // namespace

Result<ProcessResult> run_sandboxed(const SandboxPolicy& policy, const SandboxSpec& spec) {
  ChildPlan plan;
  make_plan(policy, spec, plan);
  if (!plan.error.empty()) return Error{plan.error};
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0)
    return Error{std::string("pipe2: ") + std::strerror(errno), errc_from_errno(errno)};
  pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return Error{std::string("fork: ") + std::strerror(errno), errc_from_errno(errno)};
  }
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(out[1], 1);
    dup2(out[1], 2);
    exec_child(plan);
  }
  close(out[1]);
  ProcessResult r = collect_child(pid, out[0], spec.limits.wall_s, spec.limits.output_cap);
  close(out[0]);
  return r;
}

Result<std::unique_ptr<SandboxedProcess>> SandboxedProcess::start(const SandboxPolicy& policy,
                                                                  const SandboxSpec& spec,
                                                                  const std::string& log_path) {
  ChildPlan plan;
  make_plan(policy, spec, plan);
  if (!plan.error.empty()) return Error{plan.error};
  int in[2], reply[2];
  if (pipe2(in, O_CLOEXEC) != 0)
    return Error{std::string("pipe2: ") + std::strerror(errno), errc_from_errno(errno)};
  if (pipe2(reply, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return Error{std::string("pipe2: ") + std::strerror(errno), errc_from_errno(errno)};
  }
  int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (log < 0) {
    for (int fd : {in[0], in[1], reply[0], reply[1]}) close(fd);
    return Error{"cannot create " + log_path + ": " + std::strerror(errno), errc_from_errno(errno)};
  }
  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in[0], in[1], reply[0], reply[1], log}) close(fd);
    return Error{std::string("fork: ") + std::strerror(errno), errc_from_errno(errno)};
  }
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(log, 1);
    dup2(log, 2);
    dup2(reply[1], 3);  // dup2 clears FD_CLOEXEC: fd 3 survives exec into the runner
    plan.keep_fd3 = true;
    if (plan.pass_fd >= 0 && dup2(plan.pass_fd, 4) < 0) child_fail("dup2 of the passed fd");
    exec_child(plan);
  }
  close(in[0]);
  close(reply[1]);
  close(log);
  std::unique_ptr<SandboxedProcess> p(new SandboxedProcess());
  p->pid_ = pid;
  p->to_child_ = in[1];
  p->from_child_ = reply[0];
  p->log_path_ = log_path;
  p->log_cap_ = spec.limits.output_cap;
  // Writes to a dead child must fail with EPIPE, not kill the judge.
  signal(SIGPIPE, SIG_IGN);
  return p;
}

SandboxedProcess::~SandboxedProcess() {
  if (!exited_) kill_now();
  close_fd(to_child_);
  close_fd(from_child_);
}

Status SandboxedProcess::send(const std::string& line) {
  std::string data = line + "\n";
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = write(to_child_, data.data() + off, data.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return Error{std::string("runner input closed: ") + std::strerror(errno), Errc::kClosed};
    off += static_cast<std::size_t>(n);
  }
  return Ok{};
}

Result<std::string> SandboxedProcess::receive(double timeout_s) {
  constexpr std::size_t kMaxLine = 4096;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(timeout_s));
  for (;;) {
    auto nl = pending_.find('\n');
    if (nl != std::string::npos) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return line;
    }
    if (pending_.size() > kMaxLine) return Error{"runner reply line too long", Errc::kProtocol};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) return Error{"timeout", Errc::kTimeout};
    pollfd p{from_child_, POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    char buf[4096];
    ssize_t got = read(from_child_, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return Error{"eof", Errc::kClosed};
    pending_.append(buf, static_cast<std::size_t>(got));
  }
}

void SandboxedProcess::pause() {
  if (!exited_) ::kill(-pid_, SIGSTOP);
}

void SandboxedProcess::resume() {
  if (!exited_) ::kill(-pid_, SIGCONT);
}

ProcessResult SandboxedProcess::reap(bool block) {
  if (exited_) return result_;
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) {
    exited_ = true;
    ::kill(-pid_, SIGKILL);
    if (WIFSIGNALED(status)) result_.term_signal = WTERMSIG(status);
    if (WIFEXITED(status)) result_.exit_code = WEXITSTATUS(status);
    result_.timed_out = killed_by_us_;
    result_.output = log();
  }
  return result_;
}

ProcessResult SandboxedProcess::finish(double timeout_s) {
  close_fd(to_child_);
  ::kill(-pid_, SIGCONT);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(timeout_s));
  // A runner told to quit is gone within a millisecond or two: poll often at first (a grade
  // stops ~25 runners), then back off to 2 ms.
  for (useconds_t wait_us = 50; !exited_ && std::chrono::steady_clock::now() < deadline;
       wait_us = std::min<useconds_t>(2 * wait_us, 2000)) {
    reap(false);
    if (!exited_) usleep(wait_us);
  }
  if (!exited_) return kill_now();
  return result_;
}

ProcessResult SandboxedProcess::kill_now() {
  if (exited_) return result_;
  killed_by_us_ = true;
  ::kill(-pid_, SIGKILL);
  ::kill(-pid_, SIGCONT);
  return reap(true);
}

std::string SandboxedProcess::log() const { return read_capped(log_path_, log_cap_); }

}  // namespace hpcab::judge
