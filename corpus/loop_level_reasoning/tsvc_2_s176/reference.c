#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s176)(real *restrict a, const real *restrict b, const real *restrict c,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = N / 2;
  for (int64_t j = 0; j < N / 2; j++) {
    for (int64_t i = 0; i < m; i++) a[i] += b[i + m - j - 1] * c[j];
  }
}
