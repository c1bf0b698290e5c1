#include <stdint.h>

void tsvc_2_s3251_fp64(double *restrict a, double *restrict b, const double *restrict c,
                       double *restrict d, const double *restrict e, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i + 1] = b[i] + c[i];
    b[i] = c[i] * e[i];
    d[i] = a[i] * e[i];
  }
}

void tsvc_2_s3251_fp32(float *restrict a, float *restrict b, const float *restrict c,
                       float *restrict d, const float *restrict e, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i + 1] = b[i] + c[i];
    b[i] = c[i] * e[i];
    d[i] = a[i] * e[i];
  }
}
