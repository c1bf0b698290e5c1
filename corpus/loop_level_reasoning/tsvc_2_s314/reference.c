#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s314)(const real *restrict a, real *restrict x, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real m = a[0];
  for (int64_t i = 0; i < N; i++)
    if (a[i] > m) m = a[i];
  x[0] = m;
}
