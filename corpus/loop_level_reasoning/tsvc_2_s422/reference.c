#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s422)(const real *restrict a, real *restrict flat_2d_array,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real *xx = flat_2d_array + 4;
  for (int64_t i = 0; i < N; i++) xx[i] = flat_2d_array[i + 8] + a[i];
}
