#include <stdint.h>

void unrolled_unit_step2_fp64(double *restrict a, const double *restrict b, const int64_t M,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i += 2) {
    a[i] = b[i] * 2.0;
    a[i + 1] = b[i + 1] * 2.0;
  }
}

void unrolled_unit_step2_fp32(float *restrict a, const float *restrict b, const int64_t M,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i += 2) {
    a[i] = b[i] * 2.0f;
    a[i + 1] = b[i + 1] * 2.0f;
  }
}
