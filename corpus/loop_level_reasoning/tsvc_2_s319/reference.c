#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s319)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e, real *restrict sum,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  for (int64_t i = 0; i < N; i++) {
    a[i] = c[i] + d[i];
    s += a[i];
    b[i] = c[i] + e[i];
    s += b[i];
  }
  sum[0] = s;
}
