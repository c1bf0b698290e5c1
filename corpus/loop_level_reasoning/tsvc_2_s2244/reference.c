#include <stdint.h>

void tsvc_2_s2244_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                       const double *restrict e, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i + 1] = b[i] + e[i];
    a[i] = b[i] + c[i];
  }
}

void tsvc_2_s2244_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                       const float *restrict e, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i + 1] = b[i] + e[i];
    a[i] = b[i] + c[i];
  }
}
