#include <stdint.h>

void symm_fp64(const double *restrict A, const double *restrict B, double *restrict C,
               const int64_t M, const int64_t N, const double alpha, const double beta,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      double acc = 0.0;
      for (int64_t k = 0; k < i; k++) {
        C[k * N + j] += alpha * B[i * N + j] * A[i * M + k];
        acc += B[k * N + j] * A[i * M + k];
      }
      C[i * N + j] = beta * C[i * N + j] + alpha * B[i * N + j] * A[i * M + i] + alpha * acc;
    }
}

void symm_fp32(const float *restrict A, const float *restrict B, float *restrict C,
               const int64_t M, const int64_t N, const float alpha, const float beta,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int64_t k = 0; k < i; k++) {
        C[k * N + j] += alpha * B[i * N + j] * A[i * M + k];
        acc += B[k * N + j] * A[i * M + k];
      }
      C[i * N + j] = beta * C[i * N + j] + alpha * B[i * N + j] * A[i * M + i] + alpha * acc;
    }
}
