#include <stdint.h>

void HPCAB_KERNEL(halo_broadcast)(real *restrict a, const int64_t N, const real scale,
                                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i] * scale + a[0];
  }
}
