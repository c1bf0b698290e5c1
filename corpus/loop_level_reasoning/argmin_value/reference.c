#include <stdint.h>

void HPCAB_KERNEL(argmin_value)(const real *restrict a, real *restrict out, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real x = a[0];
  for (int64_t i = 1; i < N; i++) {
    if (a[i] < x) {
      x = a[i];
    }
  }
  out[0] = x;
}
