#include <stdint.h>

void tsvc_2_s261_fp64(double *restrict a, const double *restrict b, double *restrict c,
                      const double *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    double t = a[i] + b[i];
    a[i] = t + c[i - 1];
    t = c[i] * d[i];
    c[i] = t;
  }
}

void tsvc_2_s261_fp32(float *restrict a, const float *restrict b, float *restrict c,
                      const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    float t = a[i] + b[i];
    a[i] = t + c[i - 1];
    t = c[i] * d[i];
    c[i] = t;
  }
}
