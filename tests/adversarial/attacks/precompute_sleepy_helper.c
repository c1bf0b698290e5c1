// ATTACK: like precompute_between_calls, but the helper sleeps between passes so it is never
// caught running right after a call
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected|incorrect
// EXPECT-DETAIL: the clock|expected
// Defence: the CPU time of the candidate's other threads between calls (schedstat, read by the
// judge from /proc) may not exceed outside_cpu_ns; a helper slow enough to stay under it answers
// from a stale or half-written draw. At calibrated sizes (a pass takes milliseconds) the helper
// may instead be seen still running after the call returned ("work left running escapes the
// clock"); either rejection names the clock. At calibrated sizes (a pass takes milliseconds) the helper
// is also seen still running after the call returned: rejected "kept running".
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const double *volatile in;
static double *result;
static volatile int64_t n;

static void *helper(void *arg) {
  (void)arg;
  for (;;) {
    const double *b = in;
    for (int rep = 0; rep < 20; rep++)
      for (int64_t i = 0; i < n; i++) result[i] = b[i] + 1.0;
    struct timespec ts = {0, 50000};
    nanosleep(&ts, 0);
  }
  return 0;
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (!result) {
    result = calloc((size_t)N, sizeof *result);
    in = b;
    n = N;
    pthread_t t;
    pthread_create(&t, 0, helper, 0);
    for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
    return;
  }
  memcpy(a, result, (size_t)N * sizeof *a);
}
