#include <stdint.h>

void cond_reduce_sum_fp64(const double *restrict a, double *restrict out, const int64_t N,
                          uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  out[0] = 0.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0) {
      out[0] = out[0] + a[i];
    }
  }
}

void cond_reduce_sum_fp32(const float *restrict a, float *restrict out, const int64_t N,
                          uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  out[0] = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0f) {
      out[0] = out[0] + a[i];
    }
  }
}
