#include <stdint.h>

void tsvc_2_s127_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      const double *restrict d, const double *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N / 2; i++) {
    j++;
    a[j] = b[i] + c[i] * d[i];
    j++;
    a[j] = b[i] + d[i] * e[i];
  }
}

void tsvc_2_s127_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      const float *restrict d, const float *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N / 2; i++) {
    j++;
    a[j] = b[i] + c[i] * d[i];
    j++;
    a[j] = b[i] + d[i] * e[i];
  }
}
