#include <stdint.h>

static void s152s_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                       const int64_t i) {
  a[i] += b[i] * c[i];
}

void tsvc_2_s152_fp64(double *restrict a, double *restrict b, const double *restrict c,
                      const double *restrict d, const double *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    b[i] = d[i] * e[i];
    s152s_fp64(a, b, c, i);
  }
}

static void s152s_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                       const int64_t i) {
  a[i] += b[i] * c[i];
}

void tsvc_2_s152_fp32(float *restrict a, float *restrict b, const float *restrict c,
                      const float *restrict d, const float *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    b[i] = d[i] * e[i];
    s152s_fp32(a, b, c, i);
  }
}
