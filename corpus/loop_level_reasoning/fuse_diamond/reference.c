#include <stdint.h>

void fuse_diamond_fp64(const double *restrict a, double *restrict out, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const double t = a[i] * a[i];
    const double u = t + 1.0;
    const double v = t - 1.0;
    out[i] = u * v;
  }
}

void fuse_diamond_fp32(const float *restrict a, float *restrict out, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const float t = a[i] * a[i];
    const float u = t + 1.0f;
    const float v = t - 1.0f;
    out[i] = u * v;
  }
}
