#include <stdint.h>

void HPCAB_KERNEL(fission_dep_sym_offset)(real *restrict a, real *restrict b,
                                          const real *restrict x, const real *restrict y,
                                          const real *restrict z, const int64_t K, const int64_t N,
                                          uint8_t *restrict workspace,
                                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = K; i < N; i++) {
    a[i] = a[i - K] + x[i];
    b[i] = y[i] * z[i];
  }
}
