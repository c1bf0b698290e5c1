#include <stdint.h>

void tsvc_2_s161_fp64(double *restrict a, const double *restrict b, double *restrict c,
                      const double *restrict d, const double *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    if (b[i] < 0.0) {
      c[i + 1] = a[i] + d[i] * d[i];
    } else {
      a[i] = c[i] + d[i] * e[i];
    }
  }
}

void tsvc_2_s161_fp32(float *restrict a, const float *restrict b, float *restrict c,
                      const float *restrict d, const float *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    if (b[i] < 0.0f) {
      c[i + 1] = a[i] + d[i] * d[i];
    } else {
      a[i] = c[i] + d[i] * e[i];
    }
  }
}
