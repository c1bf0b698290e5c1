#include <stdint.h>

void tsvc_2_s222_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      double *restrict e, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] += b[i] * c[i];
    e[i] = e[i - 1] * e[i - 1];
    a[i] -= b[i] * c[i];
  }
}

void tsvc_2_s222_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      float *restrict e, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] += b[i] * c[i];
    e[i] = e[i - 1] * e[i - 1];
    a[i] -= b[i] * c[i];
  }
}
