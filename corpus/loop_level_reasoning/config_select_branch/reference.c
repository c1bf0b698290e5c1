#include <stdint.h>

void config_select_branch_fp64(double *restrict out_a, double *restrict out_b,
                               const double *restrict src, const int64_t K, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (K > 0) {
      out_a[i] = src[i] * 2.0;
    } else {
      out_b[i] = src[i] + 1.0;
    }
  }
}

void config_select_branch_fp32(float *restrict out_a, float *restrict out_b,
                               const float *restrict src, const int64_t K, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (K > 0) {
      out_a[i] = src[i] * 2.0f;
    } else {
      out_b[i] = src[i] + 1.0f;
    }
  }
}
