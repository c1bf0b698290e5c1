#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s221)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] += c[i] * d[i];
    b[i] = b[i - 1] + a[i] + d[i];
  }
}
