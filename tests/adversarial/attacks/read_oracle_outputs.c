// ATTACK: look for the oracle's answers: other sessions' files, other processes
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: ok
// Defence: the oracle runs in a different sandboxed process with its own session dir; outputs
// are compared in the judge. This kernel answers wrongly if it can see any other session's
// directory, any .npy outside its own session, or any process besides itself and init.
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sees_others(void) {
  const char *dirs[] = {"/sandbox/../s0", "/sandbox/../s1", "/sandbox/../s2", "@SCRATCH_DIR@"};
  for (unsigned k = 0; k < sizeof dirs / sizeof *dirs; k++)
    if (access(dirs[k], F_OK) == 0) return 1;
  DIR *d = opendir("/proc");
  if (!d) return 0;
  int others = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    int pid = atoi(e->d_name);
    if (pid > 1 && pid != getpid()) others = 1;
  }
  closedir(d);
  return others;
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int leak = sees_others();
  for (int64_t i = 0; i < N; i++) a[i] = leak ? 0.0 : b[i] + 1.0;
}
