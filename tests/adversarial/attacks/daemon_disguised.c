// ATTACK: double fork + setsid (escapes the runner's process group, so SIGSTOP of the group
// misses it) and rename to "bwrap" to pass for the sandbox's own process
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: running after the call returned
// Defence: the census identifies bwrap's processes once, before any call, by position (the chain
// above the runner); a new process is extra whatever it calls itself. The PID namespace dies
// with its init, so the daemon does not survive the grade either.
#include <stdint.h>
#include <sys/prctl.h>
#include <unistd.h>

static int forked;

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (!forked) {
    forked = 1;
    if (fork() == 0) {
      setsid();
      if (fork() == 0) {
        prctl(PR_SET_NAME, "bwrap");
        volatile uint64_t spin = 0;
        for (;;) spin++;  // steals cycles from whoever runs next (the baseline)
      }
      _exit(0);
    }
  }
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
