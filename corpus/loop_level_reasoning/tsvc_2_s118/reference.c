#include <stdint.h>

void tsvc_2_s118_fp64(double *restrict a, const double *restrict bb, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 0; j <= i - 1; j++) a[i] += bb[j * N + i] * a[i - j - 1];
}

void tsvc_2_s118_fp32(float *restrict a, const float *restrict bb, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 0; j <= i - 1; j++) a[i] += bb[j * N + i] * a[i - j - 1];
}
