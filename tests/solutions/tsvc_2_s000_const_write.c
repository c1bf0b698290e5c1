// Input-write fixture: correct tsvc_2_s000 that also writes b[0] = 42 via a cast (verdict `rejected`).
#include <stdint.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  if (N > 0) ((double *)b)[0] = 42.0;
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
  if (N > 0) ((float *)b)[0] = 42.0f;
}
