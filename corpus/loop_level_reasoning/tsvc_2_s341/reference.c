#include <stdint.h>

void tsvc_2_s341_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N; i++) {
    if (b[i] > 0.0) {
      j++;
      a[j] = b[i];
    }
  }
}

void tsvc_2_s341_fp32(float *restrict a, const float *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N; i++) {
    if (b[i] > 0.0f) {
      j++;
      a[j] = b[i];
    }
  }
}
