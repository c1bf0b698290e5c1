#include <stdint.h>

void tsvc_2_s2275_fp64(double *restrict a, double *restrict aa, const double *restrict b,
                       const double *restrict bb, const double *restrict c,
                       const double *restrict cc, const double *restrict d, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) aa[j * N + i] = aa[j * N + i] + bb[j * N + i] * cc[j * N + i];
    a[i] = b[i] + c[i] * d[i];
  }
}

void tsvc_2_s2275_fp32(float *restrict a, float *restrict aa, const float *restrict b,
                       const float *restrict bb, const float *restrict c, const float *restrict cc,
                       const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) aa[j * N + i] = aa[j * N + i] + bb[j * N + i] * cc[j * N + i];
    a[i] = b[i] + c[i] * d[i];
  }
}
