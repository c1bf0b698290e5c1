#include <stdint.h>

void tsvc_2_s342_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0) {
      j++;
      a[i] = b[j];
    }
  }
}

void tsvc_2_s342_fp32(float *restrict a, const float *restrict b, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0f) {
      j++;
      a[i] = b[j];
    }
  }
}
