#include <stdint.h>

static double f_fp64(const double x, const double y) { return x * y; }

void tsvc_2_s4121_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] += f_fp64(b[i], c[i]);
}

static float f_fp32(const float x, const float y) { return x * y; }

void tsvc_2_s4121_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] += f_fp32(b[i], c[i]);
}
