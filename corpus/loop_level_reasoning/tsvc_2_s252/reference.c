#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s252)(real *restrict a, const real *restrict b, const real *restrict c,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real t = (real)0.0;
  for (int64_t i = 0; i < N; i++) {
    const real s = b[i] * c[i];
    a[i] = s + t;
    t = s;
  }
}
