#include <stdint.h>

void HPCAB_KERNEL(fission_dep_then_indep)(real *restrict a, real *restrict b,
                                          const real *restrict x, const real *restrict y,
                                          const int64_t N, uint8_t *restrict workspace,
                                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  a[0] = x[0];
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i - 1] + x[i];
    b[i] = y[i] * (real)2.0;
  }
}
