#include <stdint.h>

void scan_multi_carry_fp64(double *restrict a, double *restrict b, const double *restrict x,
                           const double *restrict y, const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i - 1] + x[i];
    b[i] = b[i - 1] * y[i];
  }
}

void scan_multi_carry_fp32(float *restrict a, float *restrict b, const float *restrict x,
                           const float *restrict y, const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i - 1] + x[i];
    b[i] = b[i - 1] * y[i];
  }
}
