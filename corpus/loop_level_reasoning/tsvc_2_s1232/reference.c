#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s1232)(real *restrict aa, const real *restrict bb, const real *restrict cc,
                                const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++)
    for (int64_t i = j; i < N; i++) aa[i * N + j] = bb[i * N + j] + cc[i * N + j];
}
