#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s162)(real *restrict a, const real *restrict b, const real *restrict c,
                               const int64_t N, const int64_t k, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (k > 0) {
    for (int64_t i = 0; i < N - k; i++) a[i] = a[i + k] + b[i] * c[i];
  }
}
