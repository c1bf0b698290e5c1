#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s1281)(real *restrict a, real *restrict b, const real *restrict c,
                                const real *restrict d, const real *restrict e, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const real x = b[i] * c[i] + a[i] * d[i] + e[i];
    a[i] = x - (real)1.0;
    b[i] = x;
  }
}
