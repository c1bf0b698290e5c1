#include <stdint.h>

void tsvc_2_s258_fp64(const double *restrict a, const double *restrict aa, double *restrict b,
                      const double *restrict c, const double *restrict d, double *restrict e,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double s = 0.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0) s = d[i] * d[i];
    b[i] = s * c[i] + d[i];
    e[i] = (s + 1.0) * aa[i];
  }
}

void tsvc_2_s258_fp32(const float *restrict a, const float *restrict aa, float *restrict b,
                      const float *restrict c, const float *restrict d, float *restrict e,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float s = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0f) s = d[i] * d[i];
    b[i] = s * c[i] + d[i];
    e[i] = (s + 1.0f) * aa[i];
  }
}
