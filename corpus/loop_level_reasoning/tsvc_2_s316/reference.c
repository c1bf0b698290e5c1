#include <stdint.h>

void tsvc_2_s316_fp64(const double *restrict a, double *restrict x, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double m = a[0];
  for (int64_t i = 1; i < N; ++i)
    if (a[i] < m) m = a[i];
  x[0] = m;
}

void tsvc_2_s316_fp32(const float *restrict a, float *restrict x, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float m = a[0];
  for (int64_t i = 1; i < N; ++i)
    if (a[i] < m) m = a[i];
  x[0] = m;
}
