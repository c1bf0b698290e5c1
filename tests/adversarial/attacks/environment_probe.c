// ATTACK: probe the environment and command line for anything of the judge (key, seeds, paths)
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: ok
// Defence: the runner's environment is built from nothing (bwrap --clearenv) with a fixed list;
// seeds arrive one call at a time on stdin, never in argv or the environment. This kernel
// answers wrongly if it finds any other variable or a judge path.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern char **environ;

static int leaked(void) {
  const char *allowed[] = {"PATH=", "HOME=", "TMPDIR=", "LANG=", "OMP_NUM_THREADS=",
                           "OMP_PROC_BIND=", "OMP_PLACES=", "PWD=/sandbox"};
  for (char **e = environ; *e; e++) {
    int ok = 0;
    for (unsigned k = 0; k < sizeof allowed / sizeof *allowed; k++)
      if (strncmp(*e, allowed[k], strlen(allowed[k])) == 0) ok = 1;
    if (!ok || strstr(*e, "@STATE_DIR@")) return 1;
  }
  char cmd[8192] = {0};
  FILE *f = fopen("/proc/self/cmdline", "r");
  if (f) {
    size_t n = fread(cmd, 1, sizeof cmd - 1, f);
    fclose(f);
    for (size_t i = 0; i < n; i++)
      if (cmd[i] == 0) cmd[i] = ' ';
    if (strstr(cmd, "seed") || strstr(cmd, "@STATE_DIR@") || strstr(cmd, "key")) return 1;
  }
  return 0;
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int leak = leaked();
  for (int64_t i = 0; i < N; i++) a[i] = leak ? 0.0 : b[i] + 1.0;
}
