#include <stdint.h>

void gesummv_fp64(const double *restrict A, const double *restrict B, const double *restrict x,
                  double *restrict y, const int64_t N, const double alpha, const double beta,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    double ta = 0.0;
    double tb = 0.0;
    for (int64_t j = 0; j < N; j++) {
      ta += A[i * N + j] * x[j];
      tb += B[i * N + j] * x[j];
    }
    y[i] = alpha * ta + beta * tb;
  }
}

void gesummv_fp32(const float *restrict A, const float *restrict B, const float *restrict x,
                  float *restrict y, const int64_t N, const float alpha, const float beta,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    float ta = 0.0f;
    float tb = 0.0f;
    for (int64_t j = 0; j < N; j++) {
      ta += A[i * N + j] * x[j];
      tb += B[i * N + j] * x[j];
    }
    y[i] = alpha * ta + beta * tb;
  }
}
