#include <stdint.h>

void atax_fp64(const double *restrict A, const double *restrict x, double *restrict y,
               const int64_t M, const int64_t N, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++) y[j] = 0.0;
  for (int64_t i = 0; i < M; i++) {
    double tmp = 0.0;
    for (int64_t j = 0; j < N; j++) tmp += A[i * N + j] * x[j];
    for (int64_t j = 0; j < N; j++) y[j] += A[i * N + j] * tmp;
  }
}

void atax_fp32(const float *restrict A, const float *restrict x, float *restrict y,
               const int64_t M, const int64_t N, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++) y[j] = 0.0f;
  for (int64_t i = 0; i < M; i++) {
    float tmp = 0.0f;
    for (int64_t j = 0; j < N; j++) tmp += A[i * N + j] * x[j];
    for (int64_t j = 0; j < N; j++) y[j] += A[i * N + j] * tmp;
  }
}
