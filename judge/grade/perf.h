// POST /profile's profiler (docs/api.md "POST /profile"): Linux perf run by the judge on its own
// side, outside the sandbox, attached by pid to the candidate's runner and switched on only
// around the candidate's calls; and parsers of perf's text output (pure, unit-tested on
// captured text: tests/judge/perf_test.cc).
//
// Security (docs/security.md "Profiling"): perf is the judge's child, in the judge's namespaces
// and with its uid, never inside the candidate's bubblewrap: the sandbox's pid namespace does
// not contain it (the candidate cannot name it, let alone signal or ptrace it) and its seccomp
// policy does not apply to it. perf's control fifos, its counters' CSV and its perf.data live in
// a judge-private directory (mode 0700) beside the session dirs, never under a session's
// /sandbox mount, so the candidate can neither read what was measured nor steer the profiler.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

// One line of `perf stat -x,`: the value, or nullopt with supported = false for
// `<not supported>` / `<not counted>`.
struct PerfCounter {
  std::string event;  // "task-clock", "cycles", ...
  std::optional<double> value;
  std::string unit;  // "msec" for task-clock, else ""
  bool supported = false;
};

// The counter lines of `perf stat -x,` output (comments and blank lines skipped).
std::vector<PerfCounter> parse_perf_stat(const std::string& csv);

// One line of `perf report --stdio --no-children --sort dso,sym`.
struct PerfHotspot {
  double share = 0;     // of all samples, 0..1
  std::string dso;      // "lib.so", "[kernel.kallsyms]", "[unknown]"
  std::string symbol;   // the function, or a hex address when perf could not name it
  bool kernel = false;  // "[k]": the operating system's code
};

// The sample lines of the report, in its order (largest share first), at most `limit`.
std::vector<PerfHotspot> parse_perf_report(const std::string& text, std::size_t limit = 20);

// The report header's "# Samples: 968  of event 'cpu-clock'" count (0 when absent).
long perf_report_samples(const std::string& text);

// One line of `perf report --stdio --no-children --sort srcline`: "file:line" with its share.
struct PerfSourceLine {
  double share = 0;
  std::string file;
  int line = 0;
};
std::vector<PerfSourceLine> parse_perf_srclines(const std::string& text, std::size_t limit = 20);

// One perf process (`perf stat` or `perf record`) attached to `pid`, its events disabled until
// enable() and controlled through fifos in `dir` (perf's --control). Killed if still running on
// destruction.
class PerfAttach {
 public:
  PerfAttach() = default;
  PerfAttach(const PerfAttach&) = delete;
  PerfAttach& operator=(const PerfAttach&) = delete;
  ~PerfAttach();
  // Starts `<perf> <args> --delay=-1 --control fifo:<dir>/<name>.ctl,<dir>/<name>.ack -p <pid>`,
  // its output to <dir>/<name>.log. Errors: kNotFound when perf cannot be executed.
  // `env`: "NAME=value" added to the judge's environment (PERF_BUILDID_DIR).
  Status start(const std::string& perf, std::vector<std::string> args, const std::string& dir,
               const std::string& name, pid_t pid, const std::vector<std::string>& env = {});
  // Switches the events on / off; returns once perf acknowledged (it is attached then). An
  // Error when perf did not answer within `timeout_s` (it failed to attach or open an event).
  Status enable(double timeout_s = 10) { return command("enable", timeout_s); }
  Status disable(double timeout_s = 10) { return command("disable", timeout_s); }
  // Stops perf (SIGINT: it writes its results) and waits up to `timeout_s`; its log (stderr).
  std::string stop(double timeout_s = 10);
  bool running() const { return pid_ > 0; }

 private:
  Status command(const std::string& what, double timeout_s);
  pid_t pid_ = -1;
  int ctl_ = -1, ack_ = -1;
  std::string log_path_;
};

}  // namespace hpcab::judge
