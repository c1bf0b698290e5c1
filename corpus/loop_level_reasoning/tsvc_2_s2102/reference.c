#include <stdint.h>

void tsvc_2_s2102_fp64(const double *restrict a, double *restrict aa, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) aa[j * N + i] = 0.0;
    aa[i * N + i] = a[i];
  }
}

void tsvc_2_s2102_fp32(const float *restrict a, float *restrict aa, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) aa[j * N + i] = 0.0f;
    aa[i * N + i] = a[i];
  }
}
