#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s481)(real *restrict a, const real *restrict b, const real *restrict c,
                               const real *restrict d, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (d[i] < (real)0.0) break;
    a[i] += b[i] * c[i];
  }
}
