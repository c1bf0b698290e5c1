#include <stdint.h>

void HPCAB_KERNEL(trmm)(const real *restrict A, real *restrict B, const int64_t M, const int64_t N,
                        const real alpha, uint8_t *restrict workspace,
                        const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      real acc = B[i * N + j];
      for (int64_t k = i + 1; k < M; k++) acc += A[k * M + i] * B[k * N + j];
      B[i * N + j] = alpha * acc;
    }
}
