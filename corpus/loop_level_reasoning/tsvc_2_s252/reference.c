#include <stdint.h>

void tsvc_2_s252_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double t = 0.0;
  for (int64_t i = 0; i < N; i++) {
    const double s = b[i] * c[i];
    a[i] = s + t;
    t = s;
  }
}

void tsvc_2_s252_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float t = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    const float s = b[i] * c[i];
    a[i] = s + t;
    t = s;
  }
}
