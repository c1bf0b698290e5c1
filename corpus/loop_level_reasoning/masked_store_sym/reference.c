#include <stdint.h>

void masked_store_sym_fp64(double *restrict a, const double *restrict b,
                           const double *restrict threshold_data, const double K, const int64_t N,
                           uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (threshold_data[i] > K) a[i] = b[i];
  }
}

void masked_store_sym_fp32(float *restrict a, const float *restrict b,
                           const float *restrict threshold_data, const float K, const int64_t N,
                           uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (threshold_data[i] > K) a[i] = b[i];
  }
}
