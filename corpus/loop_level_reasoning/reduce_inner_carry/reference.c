#include <stdint.h>

void reduce_inner_carry_fp64(const double *restrict a, double *restrict out, const int64_t N,
                             uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    double s = 0.0;
    for (int64_t j = 0; j < N; j++) s = s + a[i * N + j];
    out[i] = s;
  }
}

void reduce_inner_carry_fp32(const float *restrict a, float *restrict out, const int64_t N,
                             uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    float s = 0.0f;
    for (int64_t j = 0; j < N; j++) s = s + a[i * N + j];
    out[i] = s;
  }
}
