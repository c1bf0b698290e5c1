#include <stdint.h>

void HPCAB_KERNEL(scan_multi_carry)(real *restrict a, real *restrict b, const real *restrict x,
                                    const real *restrict y, const int64_t N,
                                    uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i - 1] + x[i];
    b[i] = b[i - 1] * y[i];
  }
}
