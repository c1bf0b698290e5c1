#include <stdint.h>

void relu_fp64(double *restrict out, const double *restrict x, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) out[i] = x[i] > 0.0 ? x[i] : 0.0;
}

void relu_fp32(float *restrict out, const float *restrict x, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
