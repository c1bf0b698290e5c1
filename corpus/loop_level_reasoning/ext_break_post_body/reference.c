#include <stdint.h>

void HPCAB_KERNEL(ext_break_post_body)(real *restrict a, const real *restrict b,
                                       const real *restrict c, const int64_t N,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] += b[i] * c[i];
    if (c[i] * (real)N < (real)2.0) break;
  }
}
