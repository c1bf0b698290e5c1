#include <stdint.h>

void HPCAB_KERNEL(fission_indep_2body)(real *restrict a, real *restrict b, const real *restrict x,
                                       const real *restrict y, const real *restrict z,
                                       const int64_t N, uint8_t *restrict workspace,
                                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] = x[i] * y[i] + z[i];
    b[i] = x[i] - y[i] * z[i];
  }
}
