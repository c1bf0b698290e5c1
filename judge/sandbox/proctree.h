// What the judge can see of a sandbox from outside it, through /proc: the processes a sandboxed
// launch spawned, and whether a process is blocked waiting for its next command. Everything here
// is read by the kernel on the judge's behalf, so code inside the sandbox cannot forge it (unlike
// anything the runner reports about itself).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hpcab::judge {

struct ProcEntry {
  pid_t pid = 0;
  pid_t ppid = 0;
  char state = '?';  // R, S, D, T, Z, ...
  std::string comm;  // as the process named itself (it can lie: never trust it alone)
};

// Every live descendant of `root` (not `root` itself), parents before children. Processes that
// daemonize inside a PID namespace are re-parented to its init, itself a descendant, so they stay
// in the result. Read through the tree's own /proc/<pid>/task/<tid>/children files (cheap: the
// cost grows with the tree, not with the host), falling back to descendants_by_full_scan when
// the kernel lacks them or the tree keeps changing while it is read (see proctree.cc).
std::vector<ProcEntry> descendants(pid_t root);

// The same from every /proc/<pid>/stat on the host (each process read once, its parent taken
// from there). The fallback; exposed so tests can hold the two to the same answer.
std::vector<ProcEntry> descendants_by_full_scan(pid_t root);

// The system call `pid` (its main thread) is blocked in, as /proc/<pid>/syscall reports it:
// number and the first argument. nullopt when it is running, gone, or the file is unreadable.
struct BlockedIn {
  long nr = -1;
  unsigned long long arg0 = 0;
};
std::optional<BlockedIn> blocked_in(pid_t pid);

// Is `pid` blocked reading its file descriptor `fd` (how the runner waits for a command)?
bool waiting_on_read(pid_t pid, int fd);

// The threads of process `pid` other than its main thread: state letter and CPU time used so far
// (ns, from /proc/<pid>/task/<tid>/schedstat; -1 where the kernel keeps no schedstats).
struct ThreadEntry {
  pid_t tid = 0;
  char state = '?';
  int64_t cpu_ns = -1;
};
std::vector<ThreadEntry> other_threads(pid_t pid);

// What the scheduler accounted to every thread of process `pid` so far (ns, summed over
// /proc/<pid>/task/*/schedstat): time on a CPU, and time runnable but waiting for one (run-queue
// delay). The waiting is what another process on the same CPUs costs a timed call; threads that
// exited take their figures with them. Zeros when the kernel keeps no schedstats or `pid` is gone.
struct SchedTotals {
  int64_t cpu_ns = 0;
  int64_t wait_ns = 0;
};
SchedTotals sched_totals(pid_t pid);

// The first two fields of a schedstat line ("<cpu ns> <wait ns> <slices>"); zeros if unreadable.
SchedTotals parse_schedstat(const std::string& line);

// SIGKILLs every process (but this one) whose command line contains `needle`; returns how many.
// Used on the bwrap processes of a dead judge's sandboxes, whose arguments name their bind
// mounts: a sandbox can outlive a SIGKILLed judge when the kill lands inside bubblewrap's own
// set-up (before it arms its parent-death signal).
int kill_processes_mentioning(const std::string& needle);

}  // namespace hpcab::judge
