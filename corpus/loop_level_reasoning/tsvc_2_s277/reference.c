#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s277)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    if (a[i] >= (real)0.0) goto next;
    if (b[i] >= (real)0.0) goto write_b;
    a[i] += c[i] * d[i];
  write_b:
    b[i + 1] = c[i] + d[i] * e[i];
  next:;
  }
}
