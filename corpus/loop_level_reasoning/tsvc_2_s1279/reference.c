#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s1279)(const real *restrict a, const real *restrict b, real *restrict c,
                                const real *restrict d, const real *restrict e, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] < (real)0.0) {
      if (b[i] > a[i]) c[i] += d[i] * e[i];
    }
  }
}
