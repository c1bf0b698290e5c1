#include <stdint.h>

void HPCAB_KERNEL(neg_stride_rev)(real *restrict a, const real *restrict b, const int64_t N,
                                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = N - 1; i >= 0; i--) a[i] = b[i] + (real)1.0;
}
