#include <stdint.h>

void ext_floordiv_offset_fp64(double *restrict a, const double *restrict b, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t half = N / 2;
  for (int64_t i = 0; i < half; i++) {
    a[i] = a[i + half] + b[i];
  }
}

void ext_floordiv_offset_fp32(float *restrict a, const float *restrict b, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t half = N / 2;
  for (int64_t i = 0; i < half; i++) {
    a[i] = a[i + half] + b[i];
  }
}
