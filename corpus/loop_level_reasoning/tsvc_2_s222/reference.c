#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s222)(real *restrict a, const real *restrict b, const real *restrict c,
                               real *restrict e, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] += b[i] * c[i];
    e[i] = e[i - 1] * e[i - 1];
    a[i] -= b[i] * c[i];
  }
}
