#include <stdint.h>

void HPCAB_KERNEL(masked_store_sym)(real *restrict a, const real *restrict b,
                                    const real *restrict threshold_data, const real K,
                                    const int64_t N, uint8_t *restrict workspace,
                                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (threshold_data[i] > K) a[i] = b[i];
  }
}
