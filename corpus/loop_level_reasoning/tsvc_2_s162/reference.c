#include <stdint.h>

void tsvc_2_s162_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      const int64_t N, const int64_t k, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (k > 0) {
    for (int64_t i = 0; i < N - k; i++) a[i] = a[i + k] + b[i] * c[i];
  }
}

void tsvc_2_s162_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      const int64_t N, const int64_t k, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (k > 0) {
    for (int64_t i = 0; i < N - k; i++) a[i] = a[i + k] + b[i] * c[i];
  }
}
