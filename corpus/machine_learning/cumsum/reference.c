#include <stdint.h>

void cumsum_fp64(double *restrict out, const double *restrict x, const int64_t D, const int64_t N,
                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    double s = 0.0;
    for (int64_t j = 0; j < D; j++) {
      s += x[i * D + j];
      out[i * D + j] = s;
    }
  }
}

void cumsum_fp32(float *restrict out, const float *restrict x, const int64_t D, const int64_t N,
                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    float s = 0.0f;
    for (int64_t j = 0; j < D; j++) {
      s += x[i * D + j];
      out[i * D + j] = s;
    }
  }
}
