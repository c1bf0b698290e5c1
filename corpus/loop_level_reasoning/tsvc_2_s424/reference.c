#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s424)(const real *restrict a, real *restrict flat, const int64_t N,
                               const int64_t vl, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real *xx = flat + vl;
  for (int64_t i = 0; i < N - 1; i++) xx[i + 1] = flat[i] + a[i];
}
