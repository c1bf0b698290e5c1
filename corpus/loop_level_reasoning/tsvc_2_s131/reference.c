#include <stdint.h>

void tsvc_2_s131_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = 1;
  for (int64_t i = 0; i < N - 1; i++) a[i] = a[i + m] + b[i];
}

void tsvc_2_s131_fp32(float *restrict a, const float *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = 1;
  for (int64_t i = 0; i < N - 1; i++) a[i] = a[i + m] + b[i];
}
