#include <stdint.h>

void HPCAB_KERNEL(ext_break_find_first)(real *restrict a, const real *restrict b,
                                        const real *restrict c, const real *restrict d,
                                        const int64_t N, uint8_t *restrict workspace,
                                        const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (d[i] * (real)N < (real)2.0) break;
    a[i] += b[i] * c[i];
  }
}
