#include <stdint.h>

void neg_stride_rev_fp64(double *restrict a, const double *restrict b, const int64_t N,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = N - 1; i >= 0; i--) a[i] = b[i] + 1.0;
}

void neg_stride_rev_fp32(float *restrict a, const float *restrict b, const int64_t N,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = N - 1; i >= 0; i--) a[i] = b[i] + 1.0f;
}
