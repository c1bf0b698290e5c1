#include <stdint.h>

void HPCAB_KERNEL(atax)(const real *restrict A, const real *restrict x, real *restrict y,
                        const int64_t M, const int64_t N, uint8_t *restrict workspace,
                        const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++) y[j] = (real)0.0;
  for (int64_t i = 0; i < M; i++) {
    real tmp = (real)0.0;
    for (int64_t j = 0; j < N; j++) tmp += A[i * N + j] * x[j];
    for (int64_t j = 0; j < N; j++) y[j] += A[i * N + j] * tmp;
  }
}
