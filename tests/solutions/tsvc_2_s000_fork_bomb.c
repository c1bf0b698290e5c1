// Fork-bomb fixture: tsvc_2_s000 that leaves spinning children, then answers right; never run unsandboxed.
#include <stdint.h>
#include <unistd.h>

static volatile uint64_t spin;

/* Forks up to 4096 times, ignoring failures (e.g. a process limit); every child spins forever
 * (and never returns into the caller). The parent then goes on and computes a correct result,
 * leaving the children behind for the sandbox to deal with. */
static void bomb(void) {
  for (int i = 0; i < 4096; i++) {
    const pid_t pid = fork();
    if (pid == 0)
      for (;;) spin++;
  }
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  bomb();
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  bomb();
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
}
