#include <stdint.h>

void HPCAB_KERNEL(symm)(const real *restrict A, const real *restrict B, real *restrict C,
                        const int64_t M, const int64_t N, const real alpha, const real beta,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      real acc = (real)0.0;
      for (int64_t k = 0; k < i; k++) {
        C[k * N + j] += alpha * B[i * N + j] * A[i * M + k];
        acc += B[k * N + j] * A[i * M + k];
      }
      C[i * N + j] = beta * C[i * N + j] + alpha * B[i * N + j] * A[i * M + i] + alpha * acc;
    }
}
