#include <stdint.h>

void fuse_stencil_through_transient_fp64(const double *restrict a, double *restrict out,
                                         const int64_t N, uint8_t *restrict workspace,
                                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N - 2; i++) {
    const double t0 = a[i - 1] + a[i] + a[i + 1];
    const double t1 = a[i] + a[i + 1] + a[i + 2];
    out[i] = t0 * t1;
  }
}

void fuse_stencil_through_transient_fp32(const float *restrict a, float *restrict out,
                                         const int64_t N, uint8_t *restrict workspace,
                                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N - 2; i++) {
    const float t0 = a[i - 1] + a[i] + a[i + 1];
    const float t1 = a[i] + a[i + 1] + a[i + 2];
    out[i] = t0 * t1;
  }
}
