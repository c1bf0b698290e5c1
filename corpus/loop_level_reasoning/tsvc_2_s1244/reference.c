#include <stdint.h>

void tsvc_2_s1244_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                       double *restrict d, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i] = b[i] + c[i] * c[i] + b[i] * b[i] + c[i];
    d[i] = a[i] + a[i + 1];
  }
}

void tsvc_2_s1244_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                       float *restrict d, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i] = b[i] + c[i] * c[i] + b[i] * b[i] + c[i];
    d[i] = a[i] + a[i + 1];
  }
}
