#include "judge/sandbox/seccomp.h"

#include <fcntl.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace hpcab::judge {

const std::vector<std::string>& denied_syscalls() {
  // Reading or writing other processes, changing the mount or namespace view, kernel keyrings,
  // loading code into the kernel, and performance counters (a side channel and a large attack
  // surface) are never needed by a compiler or a numerical kernel.
  static const std::vector<std::string> kDenied = {"ptrace",
                                                   "process_vm_readv",
                                                   "process_vm_writev",
                                                   "mount",
                                                   "umount2",
                                                   "pivot_root",
                                                   "chroot",
                                                   "unshare",
                                                   "setns",
                                                   "keyctl",
                                                   "add_key",
                                                   "request_key",
                                                   "kexec_load",
                                                   "kexec_file_load",
                                                   "bpf",
                                                   "perf_event_open",
                                                   "init_module",
                                                   "finit_module",
                                                   "delete_module",
                                                   "reboot",
                                                   "swapon",
                                                   "swapoff",
                                                   "open_by_handle_at",
                                                   "name_to_handle_at",
                                                   "userfaultfd",
                                                   "io_uring_setup",
                                                   "io_uring_enter",
                                                   "io_uring_register",
                                                   "fanotify_init",
                                                   "acct",
                                                   "settimeofday",
                                                   "clock_settime",
                                                   "clock_adjtime",
                                                   "adjtimex",
                                                   "syslog",
                                                   "quotactl",
                                                   "lookup_dcookie",
                                                   "vhangup",
                                                   "mount_setattr",
                                                   "move_mount",
                                                   "open_tree",
                                                   "fsopen",
                                                   "fsmount",
                                                   "fspick"};
  return kDenied;
}

const std::vector<std::string>& gpu_admitted_syscalls() {
  static const std::vector<std::string> kNone;
  return kNone;
}

const std::vector<std::string>& gpu_runtime_syscalls() {
  static const std::vector<std::string> kCalls = {"ioctl",
                                                  "mmap",
                                                  "munmap",
                                                  "mremap",
                                                  "mprotect",
                                                  "madvise",
                                                  "mlock",
                                                  "munlock",
                                                  "memfd_create",
                                                  "eventfd2",
                                                  "sched_setaffinity",
                                                  "epoll_create1",
                                                  "epoll_ctl",
                                                  "epoll_wait",
                                                  "futex",
                                                  "clone",
                                                  "clone3",
                                                  "openat",
                                                  "readlink",
                                                  "sched_getaffinity",
                                                  "get_mempolicy",
                                                  "mbind",
                                                  "prctl",
                                                  "getdents64"};
  return kCalls;
}

std::vector<std::string> denied_syscalls(SeccompProfile profile) {
  std::vector<std::string> out;
  const auto& admitted = gpu_admitted_syscalls();
  for (const auto& name : denied_syscalls()) {
    if (profile == SeccompProfile::kGpu &&
        std::find(admitted.begin(), admitted.end(), name) != admitted.end()) {
      continue;
    }
    out.push_back(name);
  }
  return out;
}

Result<int> seccomp_program_fd(SeccompProfile profile) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == nullptr) return Error{"seccomp_init failed"};
  auto fail = [&](const std::string& what) -> Result<int> {
    seccomp_release(ctx);
    return Error{"seccomp: " + what};
  };
  for (const auto& name : denied_syscalls(profile)) {
    int nr = seccomp_syscall_resolve_name(name.c_str());
    if (nr == __NR_SCMP_ERROR) continue;  // not on this architecture
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) != 0) {
      return fail("cannot add a rule for " + name);
    }
  }
  // Sockets: only AF_UNIX (local pipes some runtimes use); no network family of any kind. The
  // network namespace has no route out anyway; this also closes netlink and raw packet sockets.
  for (const char* call : {"socket", "socketpair"}) {
    int nr = seccomp_syscall_resolve_name(call);
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1,
                         SCMP_A0(SCMP_CMP_NE, static_cast<scmp_datum_t>(AF_UNIX))) != 0) {
      return fail(std::string("cannot add the rule for ") + call);
    }
  }
  // Foreign-architecture syscalls kill (libseccomp's default for a bad arch, made explicit).
  if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0) {
    return fail("cannot set the bad-arch action");
  }
  // Close-on-exec here, so concurrent sandbox launches never leak it into each other; the one
  // child meant to use it clears the flag after fork.
  int fd = memfd_create("hpcab-seccomp", MFD_ALLOW_SEALING | MFD_CLOEXEC);
  if (fd < 0) return fail(std::string("memfd_create: ") + std::strerror(errno));
  if (seccomp_export_bpf(ctx, fd) != 0) {
    close(fd);
    return fail("cannot export the program");
  }
  seccomp_release(ctx);
  // Sealed: nothing that inherits the fd can alter the program before bwrap reads it.
  fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  if (lseek(fd, 0, SEEK_SET) != 0) {
    close(fd);
    return Error{"seccomp: lseek failed"};
  }
  return fd;
}

}  // namespace hpcab::judge
