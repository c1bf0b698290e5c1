#include <stdint.h>

static int s471s(void) { return 0; }

void tsvc_2_s471_fp64(double *restrict b, const double *restrict c, const double *restrict d,
                      const double *restrict e, double *restrict x, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    x[i] = b[i] + d[i] * d[i];
    (void)s471s();
    b[i] = c[i] + d[i] * e[i];
  }
}

void tsvc_2_s471_fp32(float *restrict b, const float *restrict c, const float *restrict d,
                      const float *restrict e, float *restrict x, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    x[i] = b[i] + d[i] * d[i];
    (void)s471s();
    b[i] = c[i] + d[i] * e[i];
  }
}
