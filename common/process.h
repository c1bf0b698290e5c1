// Running a child process with captured output, a wall-clock limit and an output cap. The child
// leads its own process group, so a timeout kills everything it started.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab {

struct ProcessOptions {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::optional<std::string> cwd;
  std::vector<std::string> extra_env;  // "NAME=value", added to (or replacing in) the inherited env
  double timeout_s = 60;
  std::size_t output_cap = 1 << 20;  // bytes of stdout+stderr kept; the rest is counted, dropped
};

struct ProcessResult {
  int exit_code = -1;   // valid when term_signal == 0
  int term_signal = 0;  // signal that ended the child, if any
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved, at most output_cap bytes
  std::size_t output_dropped = 0;
  bool success() const { return !timed_out && term_signal == 0 && exit_code == 0; }
  std::string describe() const;  // "exit code 2", "killed by signal 9 (timeout after 60 s)", ...
};

// Errors are failures to start (fork/pipe); a child that fails is a ProcessResult.
Result<ProcessResult> run_process(const ProcessOptions& options);

// For callers that fork their own child (the sandbox): reads `output_fd` (the read end of the
// child's stdout/stderr pipe, which the caller closes afterwards) until EOF or `timeout_s`,
// keeping `output_cap` bytes; on timeout kills the process group `pid`; reaps `pid`; kills the
// group once more so nothing outlives it.
ProcessResult collect_child(pid_t pid, int output_fd, double timeout_s, std::size_t output_cap);

}  // namespace hpcab
