#include <stdint.h>

void HPCAB_KERNEL(standard_matrix_multiplication)(const real *restrict A, const real *restrict B, real *restrict C,
                                                  const int64_t K, const int64_t M, const int64_t N, uint8_t *restrict workspace,
                                                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++) {
    for (int64_t j = 0; j < N; j++) C[i * N + j] = (real)0.0;
    for (int64_t k = 0; k < K; k++) {
      const real a = A[i * K + k];
      for (int64_t j = 0; j < N; j++) C[i * N + j] += a * B[k * N + j];
    }
  }
}
