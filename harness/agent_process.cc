#include "harness/agent_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace hpcab::harness {

namespace {

AgentWait exited_status(int status) {
  AgentWait w;
  w.kind = AgentWait::Kind::kExited;
  if (WIFEXITED(status)) {
    w.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    w.term_signal = WTERMSIG(status);
    w.exit_code = 128 + w.term_signal;
  }
  return w;
}

}  // namespace

Result<AgentProcess> AgentProcess::start(const AgentSpawn& spawn) {
  // Everything the child needs is prepared before fork: after fork only async-signal-safe calls.
  int log_fd = ::open(spawn.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    return Error{"cannot open the agent log '" + spawn.log_path + "': " + std::strerror(errno)};
  }
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd < 0) {
    ::close(log_fd);
    return Error{std::string("cannot open /dev/null: ") + std::strerror(errno)};
  }
  std::vector<char*> argv = {const_cast<char*>("/bin/sh"), const_cast<char*>("-c"),
                             const_cast<char*>(spawn.command.c_str()), nullptr};
  std::vector<char*> envp;
  envp.reserve(spawn.env.size() + 1);
  for (const auto& e : spawn.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const pid_t parent = ::getpid();

  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    ::close(log_fd);
    ::close(null_fd);
    return Error{std::string("fork: ") + std::strerror(e)};
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    // The agent must not outlive a daemon killed with SIGKILL (a restarted daemon reruns the
    // episode; a survivor would submit twice). Grandchildren are swept by environment.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    // Default dispositions and an empty mask: the daemon blocks SIGINT/SIGTERM in its threads.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT}) ::signal(s, SIG_DFL);
    if (::dup2(null_fd, 0) < 0 || ::dup2(log_fd, 1) < 0 || ::dup2(log_fd, 2) < 0) ::_exit(127);
    // Every other descriptor of the daemon goes, close-on-exec or not (Asio's sockets are not).
    if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
      for (int fd = 3; fd < 65536; ++fd) ::close(fd);
    }
    if (::chdir(spawn.cwd.c_str()) != 0) ::_exit(127);
    ::execve("/bin/sh", argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(log_fd);
  ::close(null_fd);
  // Also from the parent, so kill(-pid) works even before the child has run setpgid.
  ::setpgid(pid, pid);
  return AgentProcess(pid);
}

AgentProcess::AgentProcess(AgentProcess&& o) noexcept
    : pid_(o.pid_), reaped_(o.reaped_), status_(o.status_) {
  o.pid_ = -1;
  o.reaped_ = true;
}

AgentProcess::~AgentProcess() {
  if (pid_ > 0) kill_group();
}

bool AgentProcess::reap(bool block, AgentWait* out) {
  if (reaped_) {
    if (out) *out = status_;
    return true;
  }
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) {
    reaped_ = true;
    status_ = exited_status(status);
    if (out) *out = status_;
    return true;
  }
  if (r < 0) {  // ECHILD: someone else reaped it; treat as gone
    reaped_ = true;
    status_ = AgentWait{};
    status_.exit_code = 127;
    if (out) *out = status_;
    return true;
  }
  return false;
}

AgentWait AgentProcess::wait(std::chrono::steady_clock::time_point deadline,
                             const std::function<bool()>& stop, std::chrono::milliseconds poll) {
  for (;;) {
    AgentWait w;
    if (reap(false, &w)) return w;
    if (stop && stop()) return AgentWait{AgentWait::Kind::kStopped, 0, 0};
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return AgentWait{AgentWait::Kind::kDeadline, 0, 0};
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(poll, deadline - now));
  }
}

AgentWait AgentProcess::terminate(double grace_s) {
  AgentWait w;
  // The grace period is for the whole group, not only the shell: `sh -c 'agent'` may have
  // forked the agent, and the shell dying first must not cut the agent's own clean-up short.
  ::kill(-pid_, SIGTERM);
  auto until = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(grace_s));
  for (;;) {
    reap(false, &w);
    const bool group_gone = ::kill(-pid_, 0) != 0 && errno == ESRCH;
    if ((reaped_ && group_gone) || std::chrono::steady_clock::now() >= until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill_group();
  reap(true, &w);
  return w;
}

void AgentProcess::kill_group() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  reap(true, nullptr);
}

int kill_processes_with_env(const std::string& entry) {
  int killed = 0;
  DIR* d = ::opendir("/proc");
  if (!d) return 0;
  const pid_t self = ::getpid();
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (!end || *end != '\0' || pid <= 0 || pid == self) continue;
    std::ifstream in(std::string("/proc/") + e->d_name + "/environ", std::ios::binary);
    if (!in) continue;
    std::string text((std::istreambuf_iterator<char>(in)), {});
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t z = text.find('\0', pos);
      if (z == std::string::npos) z = text.size();
      if (text.compare(pos, z - pos, entry) == 0) {
        if (::kill(static_cast<pid_t>(pid), SIGKILL) == 0) ++killed;
        break;
      }
      pos = z + 1;
    }
  }
  ::closedir(d);
  return killed;
}

}  // namespace hpcab::harness
