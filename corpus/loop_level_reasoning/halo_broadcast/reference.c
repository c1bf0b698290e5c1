#include <stdint.h>

void halo_broadcast_fp64(double *restrict a, const int64_t N, const double scale,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i] * scale + a[0];
  }
}

void halo_broadcast_fp32(float *restrict a, const int64_t N, const float scale,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i] * scale + a[0];
  }
}
