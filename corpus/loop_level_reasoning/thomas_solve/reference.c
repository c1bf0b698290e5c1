#include <stdint.h>

void HPCAB_KERNEL(thomas_solve)(const real *restrict a, const real *restrict b, real *restrict c,
                                real *restrict d, real *restrict x, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  c[0] = c[0] / b[0];
  d[0] = d[0] / b[0];
  for (int64_t i = 1; i < N; i++) {
    const real m = b[i] - a[i] * c[i - 1];
    c[i] = c[i] / m;
    d[i] = (d[i] - a[i] * d[i - 1]) / m;
  }
  x[N - 1] = d[N - 1];
  for (int64_t i = N - 2; i >= 0; i--) x[i] = d[i] - c[i] * x[i + 1];
}
