#include <stdint.h>

void HPCAB_KERNEL(fission_dep_const_offset)(real *restrict a, real *restrict b,
                                            const real *restrict x, const real *restrict y,
                                            const real *restrict z, const int64_t N,
                                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  a[0] = x[0];
  a[1] = x[1];
  for (int64_t i = 2; i < N; i++) {
    a[i] = a[i - 2] + x[i];
    b[i] = y[i] * z[i];
  }
}
