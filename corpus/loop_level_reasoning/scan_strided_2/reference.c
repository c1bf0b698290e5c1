#include <stdint.h>

void scan_strided_2_fp64(double *restrict a, const double *restrict x, const int64_t N,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 2; i < N; i++) a[i] = a[i - 2] + x[i];
}

void scan_strided_2_fp32(float *restrict a, const float *restrict x, const int64_t N,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 2; i < N; i++) a[i] = a[i - 2] + x[i];
}
