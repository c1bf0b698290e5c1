#include <stdint.h>

void tsvc_2_s1111_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                       const double *restrict d, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / 2; i++)
    a[2 * i] = c[i] * b[i] + d[i] * b[i] + c[i] * c[i] + d[i] * b[i] + d[i] * c[i];
}

void tsvc_2_s1111_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                       const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / 2; i++)
    a[2 * i] = c[i] * b[i] + d[i] * b[i] + c[i] * c[i] + d[i] * b[i] + d[i] * c[i];
}
