#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s242)(real *restrict a, const real *restrict b, const real *restrict c,
                               const real *restrict d, const int64_t N, const real s1,
                               const real s2, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) a[i] = a[i - 1] + s1 + s2 + b[i] + c[i] + d[i];
}
