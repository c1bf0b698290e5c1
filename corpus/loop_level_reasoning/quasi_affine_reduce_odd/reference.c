#include <stdint.h>

void HPCAB_KERNEL(quasi_affine_reduce_odd)(const real *restrict a, real *restrict out,
                                           const int64_t N, uint8_t *restrict workspace,
                                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  for (int64_t i = 1; i < N; i += 2) s += a[i];
  out[0] = s;
}
