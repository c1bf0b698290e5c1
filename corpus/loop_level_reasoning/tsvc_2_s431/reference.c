#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s431)(real *restrict a, const real *restrict b, const int64_t N,
                               const int64_t k1, const int64_t k2, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t k = 2 * k1 - k2;
  for (int64_t i = 0; i < N; i++) a[i] = a[i + k] + b[i];
}
