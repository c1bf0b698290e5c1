#include <stdint.h>

void HPCAB_KERNEL(s121_sym_k)(real *restrict a, const real *restrict b, const int64_t K,
                              const int64_t N, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - K; i++) a[i] = a[i + K] + b[i];
}
