// An agent process of an episode (SPEC §6): `/bin/sh -c COMMAND` started in its own process
// group with an explicit environment, its output appended to a log file, and the whole group
// killed at the end. The daemon (harness/daemon.h) decides when; this file only does the
// syscalls.
//
// fd hygiene: the child keeps only stdin (/dev/null) and stdout/stderr (the log); every other
// descriptor of the daemon (its database, the proxies' sockets, the lock file) is closed before
// exec, so an agent can neither write the episode database nor answer for a proxy.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::harness {

struct AgentSpawn {
  std::string command;           // run as /bin/sh -c COMMAND
  std::string cwd;               // must exist
  std::vector<std::string> env;  // the whole environment, "NAME=value"
  std::string log_path;          // stdout and stderr, appended (created 0644)
};

// How a wait ended.
struct AgentWait {
  enum class Kind { kExited, kDeadline, kStopped } kind = Kind::kExited;
  int exit_code = 0;    // kExited: the shell's status (128 + signal when killed by a signal)
  int term_signal = 0;  // kExited: the signal that ended the shell, or 0
};

class AgentProcess {
 public:
  // Forks; the child makes itself a process-group leader, gets SIGKILL when the daemon's
  // thread that started it dies (PR_SET_PDEATHSIG), closes every inherited descriptor above 2
  // and execs /bin/sh. Errors: the log cannot be opened, fork fails.
  static Result<AgentProcess> start(const AgentSpawn& spawn);

  AgentProcess(AgentProcess&& o) noexcept;
  AgentProcess& operator=(AgentProcess&&) = delete;
  AgentProcess(const AgentProcess&) = delete;
  ~AgentProcess();  // kills the group and reaps if still running

  pid_t pid() const { return pid_; }

  // Waits until the shell exits, `deadline` passes, or `stop()` returns true (polled every
  // `poll` interval). Other processes of the group may still run after kExited.
  AgentWait wait(std::chrono::steady_clock::time_point deadline, const std::function<bool()>& stop,
                 std::chrono::milliseconds poll = std::chrono::milliseconds(20));

  // SIGTERM to the group, up to `grace_s` for every process of it to exit, then SIGKILL to the
  // group, and reaps the shell. Returns the shell's status as in AgentWait (when it had already
  // exited, the status it exited with).
  AgentWait terminate(double grace_s);

  // SIGKILL to the whole group (what the agent left running in the background), reaping the
  // shell if it is still there.
  void kill_group();

 private:
  explicit AgentProcess(pid_t pid) : pid_(pid) {}
  bool reap(bool block, AgentWait* out);

  pid_t pid_ = -1;
  bool reaped_ = false;
  AgentWait status_;
};

// Sends SIGKILL to every process (other than the caller) whose environment holds `entry`
// exactly ("NAME=value"). Catches what left the agent's process group (setsid, double fork)
// but kept the variable; returns how many were signalled. Processes we may not read are
// skipped.
int kill_processes_with_env(const std::string& entry);

}  // namespace hpcab::harness
