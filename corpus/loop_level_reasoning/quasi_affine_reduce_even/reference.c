#include <stdint.h>

void quasi_affine_reduce_even_fp64(const double *restrict a, double *restrict out, const int64_t N,
                                   uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double s = 0.0;
  for (int64_t i = 0; i < N; i += 2) s += a[i];
  out[0] = s;
}

void quasi_affine_reduce_even_fp32(const float *restrict a, float *restrict out, const int64_t N,
                                   uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float s = 0.0f;
  for (int64_t i = 0; i < N; i += 2) s += a[i];
  out[0] = s;
}
