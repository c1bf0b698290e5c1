#include <stdint.h>

void tsvc_2_s423_fp64(const double *restrict a, double *restrict flat, const int64_t N,
                      const int64_t vl, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double *xx = flat + vl;
  for (int64_t i = 0; i < N - 1; i++) flat[i + 1] = xx[i] + a[i];
}

void tsvc_2_s423_fp32(const float *restrict a, float *restrict flat, const int64_t N,
                      const int64_t vl, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float *xx = flat + vl;
  for (int64_t i = 0; i < N - 1; i++) flat[i + 1] = xx[i] + a[i];
}
