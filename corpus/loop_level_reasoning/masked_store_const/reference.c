#include <stdint.h>

void masked_store_const_fp64(double *restrict a, const double *restrict b,
                             const int64_t *restrict mask, const int64_t N,
                             uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (mask[i] > 0) a[i] = b[i];
  }
}

void masked_store_const_fp32(float *restrict a, const float *restrict b,
                             const int64_t *restrict mask, const int64_t N,
                             uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (mask[i] > 0) a[i] = b[i];
  }
}
