#include <stdint.h>

void tsvc_2_s1421_fp64(const double *restrict a, double *restrict b, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double *xx = b + N / 2;
  for (int64_t i = 0; i < N / 2; i++) b[i] = xx[i] + a[i];
}

void tsvc_2_s1421_fp32(const float *restrict a, float *restrict b, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float *xx = b + N / 2;
  for (int64_t i = 0; i < N / 2; i++) b[i] = xx[i] + a[i];
}
