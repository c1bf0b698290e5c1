#include <stdint.h>

void safety_column_stencil_fp64(double *restrict a, const double *restrict bb, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 0; j < N; j++) a[i * N + j] = a[(i - 1) * N + j] + bb[i * N + j];
}

void safety_column_stencil_fp32(float *restrict a, const float *restrict bb, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 0; j < N; j++) a[i * N + j] = a[(i - 1) * N + j] + bb[i * N + j];
}
