// The seccomp policy every sandboxed process runs under (builds and runs alike), on top of the
// namespaces: system calls that could reach outside the sandbox or into other processes fail
// with EPERM. Syscalls of a foreign architecture (int 0x80, x32) kill the process, so the
// filter cannot be bypassed through a second syscall table.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

// The denied system calls, by name (for docs and tests).
const std::vector<std::string>& denied_syscalls();

// A sealed, close-on-exec memfd holding the compiled BPF program, positioned at 0. The child that
// hands it to `bwrap --seccomp FD` clears FD_CLOEXEC after fork; the caller closes it.
Result<int> seccomp_program_fd();

}  // namespace hpcab::judge
