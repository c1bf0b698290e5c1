#include <stdint.h>

void HPCAB_KERNEL(ext_floordiv_offset)(real *restrict a, const real *restrict b, const int64_t N,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t half = N / 2;
  for (int64_t i = 0; i < half; i++) {
    a[i] = a[i + half] + b[i];
  }
}
