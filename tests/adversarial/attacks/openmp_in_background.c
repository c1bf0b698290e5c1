// ATTACK: an OpenMP parallel loop started from a helper thread that outlives the call
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected|incorrect
// EXPECT-DETAIL: changed after the call returned|expected
// Defence (either outcome earns nothing, which is the point: the late writes land after the
// copy-out and are caught, or too late even for the check and the copied-out outputs are
// incomplete): as for any thread: outputs are copied out at the return and must not change after.
#include <pthread.h>
#include <stdint.h>
#include <time.h>

static double *out;
static const double *in;
static int64_t n;

static void *work(void *arg) {
  (void)arg;
  struct timespec ts = {0, 200000};
  nanosleep(&ts, 0);
#pragma omp parallel for
  for (int64_t i = 0; i < n; i++) out[i] = in[i] + 1.0;
  return 0;
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  out = a;
  in = b;
  n = N;
  pthread_t t;
  if (pthread_create(&t, 0, work, 0) == 0) pthread_detach(t);
}
