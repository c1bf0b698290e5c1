#include <stdint.h>

void tsvc_2_s291_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t im1 = N - 1;
  for (int64_t i = 0; i < N; i++) {
    a[i] = (b[i] + b[im1]) * 0.5;
    im1 = i;
  }
}

void tsvc_2_s291_fp32(float *restrict a, const float *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t im1 = N - 1;
  for (int64_t i = 0; i < N; i++) {
    a[i] = (b[i] + b[im1]) * 0.5f;
    im1 = i;
  }
}
