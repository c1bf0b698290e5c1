#include <stdint.h>

void HPCAB_KERNEL(fuse_diamond)(const real *restrict a, real *restrict out, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const real t = a[i] * a[i];
    const real u = t + (real)1.0;
    const real v = t - (real)1.0;
    out[i] = u * v;
  }
}
