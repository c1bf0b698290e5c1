#include <stdint.h>

void HPCAB_KERNEL(scaled_add)(const real *restrict x, real *restrict y, const int64_t N,
                              const real alpha, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) y[i] = y[i] + alpha * x[i];
}
