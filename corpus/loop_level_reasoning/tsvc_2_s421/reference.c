#include <stdint.h>

void tsvc_2_s421_fp64(const double *restrict a, double *restrict xx, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double *yy = xx;
  for (int64_t i = 0; i < N - 1; i++) xx[i] = yy[i + 1] + a[i];
}

void tsvc_2_s421_fp32(const float *restrict a, float *restrict xx, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float *yy = xx;
  for (int64_t i = 0; i < N - 1; i++) xx[i] = yy[i + 1] + a[i];
}
