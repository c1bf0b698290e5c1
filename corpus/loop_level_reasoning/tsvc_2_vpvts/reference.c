#include <stdint.h>

void tsvc_2_vpvts_fp64(double *restrict a, const double *restrict b, const int64_t N,
                       const double s, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] += b[i] * s;
}

void tsvc_2_vpvts_fp32(float *restrict a, const float *restrict b, const int64_t N, const float s,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] += b[i] * s;
}
