#include <stdint.h>

void tsvc_2_s453_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double s = 0.0;
  for (int64_t i = 0; i < N; i++) {
    s += 2.0;
    a[i] = s * b[i];
  }
}

void tsvc_2_s453_fp32(float *restrict a, const float *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float s = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    s += 2.0f;
    a[i] = s * b[i];
  }
}
