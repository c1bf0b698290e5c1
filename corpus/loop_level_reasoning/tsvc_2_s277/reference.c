#include <stdint.h>

void tsvc_2_s277_fp64(double *restrict a, double *restrict b, const double *restrict c,
                      const double *restrict d, const double *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    if (a[i] >= 0.0) goto next;
    if (b[i] >= 0.0) goto write_b;
    a[i] += c[i] * d[i];
  write_b:
    b[i + 1] = c[i] + d[i] * e[i];
  next:;
  }
}

void tsvc_2_s277_fp32(float *restrict a, float *restrict b, const float *restrict c,
                      const float *restrict d, const float *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    if (a[i] >= 0.0f) goto next;
    if (b[i] >= 0.0f) goto write_b;
    a[i] += c[i] * d[i];
  write_b:
    b[i + 1] = c[i] + d[i] * e[i];
  next:;
  }
}
