#include <stdint.h>

void tsvc_2_s272_fp64(double *restrict a, double *restrict b, const double *restrict c,
                      const double *restrict d, const double *restrict e, const int64_t N,
                      const double t, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (e[i] >= t) {
      a[i] += c[i] * d[i];
      b[i] += c[i] * c[i];
    }
  }
}

void tsvc_2_s272_fp32(float *restrict a, float *restrict b, const float *restrict c,
                      const float *restrict d, const float *restrict e, const int64_t N,
                      const float t, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (e[i] >= t) {
      a[i] += c[i] * d[i];
      b[i] += c[i] * c[i];
    }
  }
}
