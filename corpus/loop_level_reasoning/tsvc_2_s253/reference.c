#include <stdint.h>

void tsvc_2_s253_fp64(double *restrict a, const double *restrict b, double *restrict c,
                      const double *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > b[i]) {
      const double s = a[i] - b[i] * d[i];
      c[i] += s;
      a[i] = s;
    }
  }
}

void tsvc_2_s253_fp32(float *restrict a, const float *restrict b, float *restrict c,
                      const float *restrict d, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > b[i]) {
      const float s = a[i] - b[i] * d[i];
      c[i] += s;
      a[i] = s;
    }
  }
}
