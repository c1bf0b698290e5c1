// ATTACK: a helper thread keeps recomputing the answer from the input buffer between calls
// (while the judge writes the next draw into it, outside the clock); the call itself only copies
// the helper's latest result
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected|incorrect
// EXPECT-DETAIL: escapes the clock|expected
// Defence: after each call every thread but the runner's main one must fall asleep within
// thread_settle_s, and may then use at most outside_cpu_ns of CPU until the next call starts
// (the candidate's runner generates draws single-threaded, so nothing else legitimately runs).
// A helper that sleeps between passes instead is caught by its CPU time, or answers wrongly:
// the buffer it reads never holds the next draw before the call (the runner generates the draw
// into its snapshot and the visible buffer holds poison until "go" copies the inputs in).
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const double *volatile in;
static double *result;
static volatile int64_t n;

static void *helper(void *arg) {
  (void)arg;
  for (;;) {
    const double *b = in;
    for (int64_t i = 0; i < n; i++) result[i] = b[i] + 1.0;
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
    for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;  // first call: honest
    return;
  }
  memcpy(a, result, (size_t)N * sizeof *a);
}
