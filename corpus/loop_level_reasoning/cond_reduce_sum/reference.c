#include <stdint.h>

void HPCAB_KERNEL(cond_reduce_sum)(const real *restrict a, real *restrict out, const int64_t N,
                                   uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  out[0] = (real)0.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > (real)0.0) {
      out[0] = out[0] + a[i];
    }
  }
}
