#include <stdint.h>

void tsvc_2_s319_fp64(double *restrict a, double *restrict b, const double *restrict c,
                      const double *restrict d, const double *restrict e, double *restrict sum,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double s = 0.0;
  for (int64_t i = 0; i < N; i++) {
    a[i] = c[i] + d[i];
    s += a[i];
    b[i] = c[i] + e[i];
    s += b[i];
  }
  sum[0] = s;
}

void tsvc_2_s319_fp32(float *restrict a, float *restrict b, const float *restrict c,
                      const float *restrict d, const float *restrict e, float *restrict sum,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float s = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    a[i] = c[i] + d[i];
    s += a[i];
    b[i] = c[i] + e[i];
    s += b[i];
  }
  sum[0] = s;
}
