#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s317)(const real *restrict a, real *restrict q, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real p = (real)1.0;
  for (int64_t i = 0; i < N / 2; i++) p *= a[i];
  q[0] = p;
}
