#include <stdint.h>

void HPCAB_KERNEL(masked_store_const)(real *restrict a, const real *restrict b,
                                      const int64_t *restrict mask, const int64_t N,
                                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (mask[i] > 0) a[i] = b[i];
  }
}
