// tsvc_2_s000 submission (OpenMP + SIMD streaming a[i] = b[i] + 1) for the `make run` demo and e2e tests.
#include <stdint.h>

/* Memory bound: threads only pay off once the arrays outgrow a core's caches. */
#define PAR_MIN 65536

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (N < PAR_MIN) {
#pragma omp simd
    for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
    return;
  }
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (N < PAR_MIN) {
#pragma omp simd
    for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
    return;
  }
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
}
