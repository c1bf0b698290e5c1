#include <stdint.h>

void tsvc_2_s1279_fp64(const double *restrict a, const double *restrict b, double *restrict c,
                       const double *restrict d, const double *restrict e, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] < 0.0) {
      if (b[i] > a[i]) c[i] += d[i] * e[i];
    }
  }
}

void tsvc_2_s1279_fp32(const float *restrict a, const float *restrict b, float *restrict c,
                       const float *restrict d, const float *restrict e, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] < 0.0f) {
      if (b[i] > a[i]) c[i] += d[i] * e[i];
    }
  }
}
