#include <stdint.h>

void mat_scaled_add_fp64(const double *restrict A, double *restrict B, const int64_t M,
                         const int64_t N, const double alpha, uint8_t *restrict workspace,
                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) B[i * N + j] = B[i * N + j] + alpha * A[i * N + j];
}

void mat_scaled_add_fp32(const float *restrict A, float *restrict B, const int64_t M,
                         const int64_t N, const float alpha, uint8_t *restrict workspace,
                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) B[i * N + j] = B[i * N + j] + alpha * A[i * N + j];
}
