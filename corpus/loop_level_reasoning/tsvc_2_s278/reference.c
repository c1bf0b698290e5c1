#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s278)(real *restrict a, real *restrict b, real *restrict c,
                               const real *restrict d, const real *restrict e, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > (real)0.0) goto update_c;
    b[i] = -b[i] + d[i] * e[i];
    goto update_a;
  update_c:
    c[i] = -c[i] + d[i] * e[i];
  update_a:
    a[i] = b[i] + c[i] * d[i];
  }
}
