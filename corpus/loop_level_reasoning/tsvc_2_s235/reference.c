#include <stdint.h>

void tsvc_2_s235_fp64(double *restrict a, double *restrict aa, const double *restrict b,
                      const double *restrict bb, const double *restrict c, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] += b[i] * c[i];
    for (int64_t j = 1; j < N; j++) aa[j * N + i] = aa[(j - 1) * N + i] + bb[j * N + i] * a[i];
  }
}

void tsvc_2_s235_fp32(float *restrict a, float *restrict aa, const float *restrict b,
                      const float *restrict bb, const float *restrict c, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] += b[i] * c[i];
    for (int64_t j = 1; j < N; j++) aa[j * N + i] = aa[(j - 1) * N + i] + bb[j * N + i] * a[i];
  }
}
