#include <stdint.h>

void syrk_fp64(const double *restrict A, double *restrict C, const int64_t M, const int64_t N,
               const double alpha, const double beta, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j <= i; j++) C[i * N + j] *= beta;
    for (int64_t k = 0; k < M; k++)
      for (int64_t j = 0; j <= i; j++) C[i * N + j] += alpha * A[i * M + k] * A[j * M + k];
  }
}

void syrk_fp32(const float *restrict A, float *restrict C, const int64_t M, const int64_t N,
               const float alpha, const float beta, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j <= i; j++) C[i * N + j] *= beta;
    for (int64_t k = 0; k < M; k++)
      for (int64_t j = 0; j <= i; j++) C[i * N + j] += alpha * A[i * M + k] * A[j * M + k];
  }
}
