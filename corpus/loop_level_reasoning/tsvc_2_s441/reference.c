#include <stdint.h>

void tsvc_2_s441_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      const double *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (d[i] < 0.0)
      a[i] += b[i] * c[i];
    else if (d[i] == 0.0)
      a[i] += b[i] * b[i];
    else
      a[i] += c[i] * c[i];
  }
}

void tsvc_2_s441_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (d[i] < 0.0f)
      a[i] += b[i] * c[i];
    else if (d[i] == 0.0f)
      a[i] += b[i] * b[i];
    else
      a[i] += c[i] * c[i];
  }
}
