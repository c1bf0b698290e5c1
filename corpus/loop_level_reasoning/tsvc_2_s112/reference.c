#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s112)(real *restrict a, const real *restrict b, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = N - 2; i >= 0; i--) a[i + 1] = a[i] + b[i];
}
