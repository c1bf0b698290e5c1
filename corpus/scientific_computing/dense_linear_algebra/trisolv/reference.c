#include <stdint.h>

void HPCAB_KERNEL(trisolv)(const real *restrict L, const real *restrict b, real *restrict x,
                           const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    real acc = b[i];
    for (int64_t j = 0; j < i; j++) acc -= L[i * N + j] * x[j];
    x[i] = acc / L[i * N + i];
  }
}
