#include <stdint.h>

void tsvc_2_s273_fp64(double *restrict a, double *restrict b, double *restrict c,
                      const double *restrict d, const double *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] += d[i] * e[i];
    if (a[i] < 0.0) b[i] += d[i] * e[i];
    c[i] += a[i] * d[i];
  }
}

void tsvc_2_s273_fp32(float *restrict a, float *restrict b, float *restrict c,
                      const float *restrict d, const float *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] += d[i] * e[i];
    if (a[i] < 0.0f) b[i] += d[i] * e[i];
    c[i] += a[i] * d[i];
  }
}
