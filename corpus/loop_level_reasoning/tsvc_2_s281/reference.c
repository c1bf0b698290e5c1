#include <stdint.h>

void tsvc_2_s281_fp64(double *restrict a, double *restrict b, const double *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const double x = a[N - i - 1] + b[i] * c[i];
    a[i] = x - 1.0;
    b[i] = x;
  }
}

void tsvc_2_s281_fp32(float *restrict a, float *restrict b, const float *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const float x = a[N - i - 1] + b[i] * c[i];
    a[i] = x - 1.0f;
    b[i] = x;
  }
}
