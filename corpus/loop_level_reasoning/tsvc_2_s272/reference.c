#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s272)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e, const int64_t N,
                               const real t, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (e[i] >= t) {
      a[i] += c[i] * d[i];
      b[i] += c[i] * c[i];
    }
  }
}
