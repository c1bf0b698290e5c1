#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s258)(const real *restrict a, const real *restrict aa, real *restrict b,
                               const real *restrict c, const real *restrict d, real *restrict e,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > (real)0.0) s = d[i] * d[i];
    b[i] = s * c[i] + d[i];
    e[i] = (s + (real)1.0) * aa[i];
  }
}
