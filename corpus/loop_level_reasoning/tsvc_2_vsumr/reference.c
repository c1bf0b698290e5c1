#include <stdint.h>

void tsvc_2_vsumr_fp64(const double *restrict a, double *restrict sum, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double s = 0.0;
  for (int64_t i = 0; i < N; i++) s += a[i];
  sum[0] = s;
}

void tsvc_2_vsumr_fp32(const float *restrict a, float *restrict sum, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float s = 0.0f;
  for (int64_t i = 0; i < N; i++) s += a[i];
  sum[0] = s;
}
