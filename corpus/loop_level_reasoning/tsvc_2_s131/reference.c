#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s131)(real *restrict a, const real *restrict b, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = 1;
  for (int64_t i = 0; i < N - 1; i++) a[i] = a[i + m] + b[i];
}
