#include <stdint.h>

void scan_strided_sym_fp64(double *restrict a, const double *restrict x, const int64_t K,
                           const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = K; i < N; i++) a[i] = a[i - K] + x[i];
}

void scan_strided_sym_fp32(float *restrict a, const float *restrict x, const int64_t K,
                           const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = K; i < N; i++) a[i] = a[i - K] + x[i];
}
