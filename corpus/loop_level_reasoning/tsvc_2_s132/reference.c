#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s132)(real *restrict aa, const real *restrict b, const real *restrict c,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = 0;
  const int64_t j = m;
  const int64_t k = m + 1;
  for (int64_t i = 1; i < N; i++) aa[j * N + i] = aa[k * N + i - 1] + b[i] * c[1];
}
