#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s274)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] = c[i] + e[i] * d[i];
    if (a[i] > (real)0.0)
      b[i] = a[i] + b[i];
    else
      a[i] = d[i] * e[i];
  }
}
