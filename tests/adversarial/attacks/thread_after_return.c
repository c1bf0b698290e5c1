// ATTACK: return at once and let a detached thread write the outputs after the clock stopped
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected|incorrect
// EXPECT-DETAIL: changed after the call returned|expected
// Defence (either outcome earns nothing, which is the point: the late writes land after the
// copy-out and are caught, or too late even for the check and the copied-out outputs are
// incomplete): the runner copies the outputs out right after the call returns (outside the clock)
// and, before saving them, checks the live outputs still equal that copy; a thread still
// writing after the return makes them differ.
#include <pthread.h>
#include <stdint.h>
#include <time.h>

struct job {
  double *a;
  const double *b;
  int64_t n;
};
static struct job job;

static void *work(void *arg) {
  struct job *j = arg;
  struct timespec ts = {0, 200000};  // let the call return first
  nanosleep(&ts, 0);
  for (int64_t i = 0; i < j->n; i++) j->a[i] = j->b[i] + 1.0;
  return 0;
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  job.a = a;
  job.b = b;
  job.n = N;
  pthread_t t;
  if (pthread_create(&t, 0, work, &job) == 0) pthread_detach(t);
}
