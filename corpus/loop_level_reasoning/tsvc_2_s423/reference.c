#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s423)(const real *restrict a, real *restrict flat, const int64_t N,
                               const int64_t vl, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real *xx = flat + vl;
  for (int64_t i = 0; i < N - 1; i++) flat[i + 1] = xx[i] + a[i];
}
