#include <stdint.h>

void tsvc_2_s115_fp64(double *restrict a, const double *restrict aa, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++)
    for (int64_t i = j + 1; i < N; i++) a[i] -= aa[j * N + i] * a[j];
}

void tsvc_2_s115_fp32(float *restrict a, const float *restrict aa, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++)
    for (int64_t i = j + 1; i < N; i++) a[i] -= aa[j * N + i] * a[j];
}
