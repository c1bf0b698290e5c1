#include <stdint.h>

static void s152s(real *restrict a, const real *restrict b, const real *restrict c,
                  const int64_t i) {
  a[i] += b[i] * c[i];
}

void HPCAB_KERNEL(tsvc_2_s152)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    b[i] = d[i] * e[i];
    s152s(a, b, c, i);
  }
}
