#include <stdint.h>

void tsvc_2_s256_fp64(double *restrict a, double *restrict aa, const double *restrict bb,
                      const double *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 1; j < N; j++) {
      a[j] = 1.0 - a[j - 1];
      aa[j * N + i] = a[j] + bb[j * N + i] * d[j];
    }
  }
}

void tsvc_2_s256_fp32(float *restrict a, float *restrict aa, const float *restrict bb,
                      const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 1; j < N; j++) {
      a[j] = 1.0f - a[j - 1];
      aa[j * N + i] = a[j] + bb[j * N + i] * d[j];
    }
  }
}
