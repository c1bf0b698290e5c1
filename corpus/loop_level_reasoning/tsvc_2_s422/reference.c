#include <stdint.h>

void tsvc_2_s422_fp64(const double *restrict a, double *restrict flat_2d_array, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double *xx = flat_2d_array + 4;
  for (int64_t i = 0; i < N; i++) xx[i] = flat_2d_array[i + 8] + a[i];
}

void tsvc_2_s422_fp32(const float *restrict a, float *restrict flat_2d_array, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float *xx = flat_2d_array + 4;
  for (int64_t i = 0; i < N; i++) xx[i] = flat_2d_array[i + 8] + a[i];
}
