#include <stdint.h>

void tsvc_2_s176_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = N / 2;
  for (int64_t j = 0; j < N / 2; j++) {
    for (int64_t i = 0; i < m; i++) a[i] += b[i + m - j - 1] * c[j];
  }
}

void tsvc_2_s176_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = N / 2;
  for (int64_t j = 0; j < N / 2; j++) {
    for (int64_t i = 0; i < m; i++) a[i] += b[i + m - j - 1] * c[j];
  }
}
