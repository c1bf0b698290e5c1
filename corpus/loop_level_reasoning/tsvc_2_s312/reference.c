#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s312)(const real *restrict a, real *restrict prod, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real p = (real)1.0;
  for (int64_t i = 0; i < N; i++) p *= a[i];
  prod[0] = p;
}
