// The seccomp policy every sandboxed process runs under (builds and runs alike), on top of the
// namespaces: system calls that could reach outside the sandbox or into other processes fail
// with EPERM. Syscalls of a foreign architecture (int 0x80, x32) kill the process, so the
// filter cannot be bypassed through a second syscall table.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

// kCpu: every build and CPU run. kGpu: GPU grades' runners (SandboxSpec::gpu). The policy is a
// deny list over a default of allow, so the GPU runtimes' calls (ioctl on their device nodes,
// mmap of device memory and its variants, mlock, sched_setaffinity, eventfd, AF_UNIX sockets,
// memfd_create) are already admitted by the CPU profile and the GPU profile admits nothing
// more: gpu_admitted_syscalls() is empty, and a test keeps the runtimes' needs off the deny list.
// What differs for a GPU grade is the device nodes bound into its sandbox
// (judge/sandbox/sandbox.h).
enum class SeccompProfile { kCpu, kGpu };

// The denied system calls, by name (for docs and tests).
const std::vector<std::string>& denied_syscalls();
std::vector<std::string> denied_syscalls(SeccompProfile profile);
// Calls of the CPU deny list that the GPU profile admits (none: see above).
const std::vector<std::string>& gpu_admitted_syscalls();
// The system calls the CUDA and HIP runtimes are known to make beyond a CPU kernel's (for the
// test that both profiles admit them).
const std::vector<std::string>& gpu_runtime_syscalls();

// A sealed, close-on-exec memfd holding the compiled BPF program, positioned at 0. The child that
// hands it to `bwrap --seccomp FD` clears FD_CLOEXEC after fork; the caller closes it.
Result<int> seccomp_program_fd(SeccompProfile profile = SeccompProfile::kCpu);

}  // namespace hpcab::judge
