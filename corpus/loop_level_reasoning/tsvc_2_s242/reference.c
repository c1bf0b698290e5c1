#include <stdint.h>

void tsvc_2_s242_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      const double *restrict d, const int64_t N, const double s1, const double s2,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) a[i] = a[i - 1] + s1 + s2 + b[i] + c[i] + d[i];
}

void tsvc_2_s242_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      const float *restrict d, const int64_t N, const float s1, const float s2,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) a[i] = a[i - 1] + s1 + s2 + b[i] + c[i] + d[i];
}
