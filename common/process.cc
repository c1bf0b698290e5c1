#include "common/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace hpcab {

std::string ProcessResult::describe() const {
  if (timed_out) return "timed out (killed)";
  if (term_signal != 0) {
    return "killed by signal " + std::to_string(term_signal) + " (" + strsignal(term_signal) + ")";
  }
  return "exit code " + std::to_string(exit_code);
}

ProcessResult collect_child(pid_t pid, int output_fd, double timeout_s, std::size_t output_cap) {
  ProcessResult result;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(timeout_s));
  char buf[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      result.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{output_fd, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = read(output_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: every writer (the child and its descendants) is gone
    std::size_t keep = std::min(static_cast<std::size_t>(n),
                                output_cap - std::min(output_cap, result.output.size()));
    result.output.append(buf, keep);
    result.output_dropped += static_cast<std::size_t>(n) - keep;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // Descendants that outlived the child (daemonized helpers) die with the group.
  kill(-pid, SIGKILL);
  if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

Result<ProcessResult> run_process(const ProcessOptions& options) {
  if (options.argv.empty()) return Error{"run_process: empty argv"};
  // Everything the child needs is built before fork: after fork only async-signal-safe calls.
  std::vector<char*> argv;
  for (const auto& a : options.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_store;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    bool replaced = false;
    for (const auto& x : options.extra_env) {
      if (x.compare(0, x.find('=') + 1, entry, 0, eq + 1) == 0) replaced = true;
    }
    if (!replaced) env_store.push_back(entry);
  }
  for (const auto& x : options.extra_env) env_store.push_back(x);
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Error{std::string("pipe2: ") + std::strerror(errno)};
  const char* cwd = options.cwd ? options.cwd->c_str() : nullptr;
  pid_t pid = fork();
  if (pid < 0) {
    int err = errno;
    close(fds[0]);
    close(fds[1]);
    return Error{std::string("fork: ") + std::strerror(err)};
  }
  if (pid == 0) {
    setpgid(0, 0);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    if (cwd != nullptr && chdir(cwd) != 0) _exit(126);
    execvpe(argv[0], argv.data(), envp.data());
    const char msg[] = "run_process: exec failed\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill below
  close(fds[1]);

  ProcessResult result = collect_child(pid, fds[0], options.timeout_s, options.output_cap);
  close(fds[0]);
  return result;
}

}  // namespace hpcab
