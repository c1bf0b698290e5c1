#include <stdint.h>

void HPCAB_KERNEL(unrolled_unit_step2)(real *restrict a, const real *restrict b, const int64_t M,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < M; i += 2) {
    a[i] = b[i] * (real)2.0;
    a[i + 1] = b[i + 1] * (real)2.0;
  }
}
