#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s243)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i] = b[i] + c[i] * d[i];
    b[i] = a[i] + d[i] * e[i];
    a[i] = b[i] + a[i + 1] * d[i];
  }
}
