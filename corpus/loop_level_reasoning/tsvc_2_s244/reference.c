#include <stdint.h>

void tsvc_2_s244_fp64(double *restrict a, double *restrict b, const double *restrict c,
                      const double *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i] = b[i] + c[i] * d[i];
    b[i] = c[i] + b[i];
    a[i + 1] = b[i] + a[i + 1] * d[i];
  }
}

void tsvc_2_s244_fp32(float *restrict a, float *restrict b, const float *restrict c,
                      const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i] = b[i] + c[i] * d[i];
    b[i] = c[i] + b[i];
    a[i + 1] = b[i] + a[i + 1] * d[i];
  }
}
