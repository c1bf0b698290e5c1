#include <stdint.h>

static void s151s_fp64(double *restrict a, const double *restrict b, const int64_t N,
                       const int64_t m) {
  for (int64_t i = 0; i < N - 1; i++) a[i] = a[i + m] + b[i];
}

void tsvc_2_s151_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  s151s_fp64(a, b, N, 1);
}

static void s151s_fp32(float *restrict a, const float *restrict b, const int64_t N,
                       const int64_t m) {
  for (int64_t i = 0; i < N - 1; i++) a[i] = a[i + m] + b[i];
}

void tsvc_2_s151_fp32(float *restrict a, const float *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  s151s_fp32(a, b, N, 1);
}
