#include <stdint.h>

void HPCAB_KERNEL(fuse_stencil_through_transient)(const real *restrict a, real *restrict out,
                                                  const int64_t N, uint8_t *restrict workspace,
                                                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N - 2; i++) {
    const real t0 = a[i - 1] + a[i] + a[i + 1];
    const real t1 = a[i] + a[i + 1] + a[i + 2];
    out[i] = t0 * t1;
  }
}
