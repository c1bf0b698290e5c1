#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s2101)(real *restrict aa, const real *restrict bb, const real *restrict cc,
                                const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) aa[i * N + i] += bb[i * N + i] * cc[i * N + i];
}
