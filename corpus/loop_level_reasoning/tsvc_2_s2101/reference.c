#include <stdint.h>

void tsvc_2_s2101_fp64(double *restrict aa, const double *restrict bb, const double *restrict cc,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) aa[i * N + i] += bb[i * N + i] * cc[i * N + i];
}

void tsvc_2_s2101_fp32(float *restrict aa, const float *restrict bb, const float *restrict cc,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) aa[i * N + i] += bb[i * N + i] * cc[i * N + i];
}
