// ATTACK: a constructor re-executes the runner with LD_PRELOAD of this library, so the new
// runner's own clock calls resolve to the library's fake clock_gettime
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: ok
// EXPECT-SUSPECT: false
// Defence: the runner installs a seccomp filter denying execve/execveat before it loads the
// library. If the re-exec worked, this kernel answers wrongly (so the verdict shows it).
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int reexeced;

__attribute__((constructor)) static void reexec(void) {
  if (getenv("HPCAB_ATTACK_REEXEC")) {
    reexeced = 1;
    return;
  }
  static char buf[16384];
  FILE *f = fopen("/proc/self/cmdline", "r");
  if (!f) return;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  char *argv[64];
  int argc = 0;
  for (size_t i = 0; i < n && argc < 63; i += strlen(buf + i) + 1) argv[argc++] = buf + i;
  argv[argc] = 0;
  setenv("HPCAB_ATTACK_REEXEC", "1", 1);
  setenv("LD_PRELOAD", "/sandbox/lib.so", 1);
  execv("/proc/self/exe", argv);
  unsetenv("HPCAB_ATTACK_REEXEC");  // denied: carry on as an honest kernel
  unsetenv("LD_PRELOAD");
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = reexeced ? 0.0 : b[i] + 1.0;
}
