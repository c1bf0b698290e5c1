#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s2710)(real *restrict a, real *restrict b, real *restrict c,
                                const real *restrict d, const real *restrict e, const int64_t N,
                                const int64_t x, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > b[i]) {
      a[i] += b[i] * d[i];
      if (N > 10) {
        c[i] += d[i] * d[i];
      } else {
        c[i] = d[i] * e[i] + (real)1.0;
      }
    } else {
      b[i] = a[i] + e[i] * e[i];
      if (x > 0) {
        c[i] = a[i] + d[i] * d[i];
      } else {
        c[i] += e[i] * e[i];
      }
    }
  }
}
