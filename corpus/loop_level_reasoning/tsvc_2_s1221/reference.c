#include <stdint.h>

void tsvc_2_s1221_fp64(const double *restrict a, double *restrict b, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 4; i < N; i++) b[i] = b[i - 4] + a[i];
}

void tsvc_2_s1221_fp32(const float *restrict a, float *restrict b, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 4; i < N; i++) b[i] = b[i - 4] + a[i];
}
