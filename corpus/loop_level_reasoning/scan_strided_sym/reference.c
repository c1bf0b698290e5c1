#include <stdint.h>

void HPCAB_KERNEL(scan_strided_sym)(real *restrict a, const real *restrict x, const int64_t K,
                                    const int64_t N, uint8_t *restrict workspace,
                                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = K; i < N; i++) a[i] = a[i - K] + x[i];
}
