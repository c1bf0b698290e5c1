// ATTACK: read the key file, the database, the state and scratch dirs, the judge's /proc
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: ok
// Defence: the sandbox mounts only the system read-only, a private /tmp and the session dir;
// its own PID namespace hides the judge; seccomp denies ptrace and process_vm_readv. Any file
// or memory of the judge that opens makes this kernel answer wrongly.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

static int reachable(void) {
  const char *files[] = {"@KEY_FILE@", "@DB_FILE@", "@STATE_DIR@", "@SCRATCH_DIR@",
                         "/proc/@JUDGE_PID@/environ", "/proc/@JUDGE_PID@/mem",
                         "/proc/@JUDGE_PID@/cmdline"};
  for (unsigned k = 0; k < sizeof files / sizeof *files; k++) {
    int fd = open(files[k], O_RDONLY);
    if (fd >= 0) {
      close(fd);
      return 1;
    }
  }
  // Another process's memory: whatever pids are visible, nothing may be readable.
  char buf[16];
  for (int pid = 1; pid < 64; pid++) {
    if (pid == getpid()) continue;
    struct iovec local = {buf, sizeof buf}, remote = {(void *)0x400000, sizeof buf};
    if (process_vm_readv(pid, &local, 1, &remote, 1, 0) > 0) return 1;
  }
  return 0;
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int leak = reachable();
  for (int64_t i = 0; i < N; i++) a[i] = leak ? 0.0 : b[i] + 1.0;
}
