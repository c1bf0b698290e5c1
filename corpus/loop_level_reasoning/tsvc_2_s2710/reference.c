#include <stdint.h>

void tsvc_2_s2710_fp64(double *restrict a, double *restrict b, double *restrict c,
                       const double *restrict d, const double *restrict e, const int64_t N,
                       const int64_t x, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > b[i]) {
      a[i] += b[i] * d[i];
      if (N > 10) {
        c[i] += d[i] * d[i];
      } else {
        c[i] = d[i] * e[i] + 1.0;
      }
    } else {
      b[i] = a[i] + e[i] * e[i];
      if (x > 0) {
        c[i] = a[i] + d[i] * d[i];
      } else {
        c[i] += e[i] * e[i];
      }
    }
  }
}

void tsvc_2_s2710_fp32(float *restrict a, float *restrict b, float *restrict c,
                       const float *restrict d, const float *restrict e, const int64_t N,
                       const int64_t x, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > b[i]) {
      a[i] += b[i] * d[i];
      if (N > 10) {
        c[i] += d[i] * d[i];
      } else {
        c[i] = d[i] * e[i] + 1.0f;
      }
    } else {
      b[i] = a[i] + e[i] * e[i];
      if (x > 0) {
        c[i] = a[i] + d[i] * d[i];
      } else {
        c[i] += e[i] * e[i];
      }
    }
  }
}
