#include <stdint.h>

void tsvc_2_s221_fp64(double *restrict a, double *restrict b, const double *restrict c,
                      const double *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] += c[i] * d[i];
    b[i] = b[i - 1] + a[i] + d[i];
  }
}

void tsvc_2_s221_fp32(float *restrict a, float *restrict b, const float *restrict c,
                      const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] += c[i] * d[i];
    b[i] = b[i - 1] + a[i] + d[i];
  }
}
