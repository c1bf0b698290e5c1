#include <stdint.h>

void trmm_fp64(const double *restrict A, double *restrict B, const int64_t M, const int64_t N,
               const double alpha, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      double acc = B[i * N + j];
      for (int64_t k = i + 1; k < M; k++) acc += A[k * M + i] * B[k * N + j];
      B[i * N + j] = alpha * acc;
    }
}

void trmm_fp32(const float *restrict A, float *restrict B, const int64_t M, const int64_t N,
               const float alpha, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      float acc = B[i * N + j];
      for (int64_t k = i + 1; k < M; k++) acc += A[k * M + i] * B[k * N + j];
      B[i * N + j] = alpha * acc;
    }
}
