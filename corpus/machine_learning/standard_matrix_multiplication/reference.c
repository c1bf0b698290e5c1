#include <stdint.h>

void standard_matrix_multiplication_fp64(const double *restrict A, const double *restrict B, double *restrict C,
                 const int64_t K, const int64_t M, const int64_t N, uint8_t *restrict workspace,
                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++) {
    for (int64_t j = 0; j < N; j++) C[i * N + j] = 0.0;
    for (int64_t k = 0; k < K; k++) {
      const double a = A[i * K + k];
      for (int64_t j = 0; j < N; j++) C[i * N + j] += a * B[k * N + j];
    }
  }
}

void standard_matrix_multiplication_fp32(const float *restrict A, const float *restrict B, float *restrict C,
                 const int64_t K, const int64_t M, const int64_t N, uint8_t *restrict workspace,
                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++) {
    for (int64_t j = 0; j < N; j++) C[i * N + j] = 0.0f;
    for (int64_t k = 0; k < K; k++) {
      const float a = A[i * K + k];
      for (int64_t j = 0; j < N; j++) C[i * N + j] += a * B[k * N + j];
    }
  }
}
