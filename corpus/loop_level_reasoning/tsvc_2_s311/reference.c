#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s311)(const real *restrict a, real *restrict sum, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  for (int64_t i = 0; i < N; i++) s += a[i];
  sum[0] = s;
}
