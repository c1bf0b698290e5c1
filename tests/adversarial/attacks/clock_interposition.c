// ATTACK: define clock_gettime, gettimeofday and omp_get_wtime to report a slowed-down clock
// KERNEL: gemm
// ROUTE: score
// EXPECT-VERDICT: ok
// EXPECT-SUSPECT: false
// EXPECT-MAX-SPEEDUP: 3
// Defence: the library is loaded RTLD_LOCAL into a runner whose clock calls are already bound
// to libc, so the submission's definitions only ever serve the submission itself.
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int clock_gettime(clockid_t id, struct timespec *ts) {
  long r = syscall(SYS_clock_gettime, id, ts);
  ts->tv_nsec /= 10;
  ts->tv_sec /= 10;
  return (int)r;
}

int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  tv->tv_sec = 0;
  tv->tv_usec = 0;
  return 0;
}

double omp_get_wtime(void) { return 0.0; }

void gemm_fp64(const double *restrict A, const double *restrict B, double *restrict C,
               const int64_t NI, const int64_t NJ, const int64_t NK, const double alpha,
               const double beta, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] *= beta;
    for (int64_t k = 0; k < NK; k++) {
      const double a = alpha * A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] += a * B[k * NJ + j];
    }
  }
}
