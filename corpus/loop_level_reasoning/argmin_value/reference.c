#include <stdint.h>

void argmin_value_fp64(const double *restrict a, double *restrict out, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double x = a[0];
  for (int64_t i = 1; i < N; i++) {
    if (a[i] < x) {
      x = a[i];
    }
  }
  out[0] = x;
}

void argmin_value_fp32(const float *restrict a, float *restrict out, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float x = a[0];
  for (int64_t i = 1; i < N; i++) {
    if (a[i] < x) {
      x = a[i];
    }
  }
  out[0] = x;
}
