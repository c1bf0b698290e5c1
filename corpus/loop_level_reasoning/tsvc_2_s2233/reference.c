#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s2233)(real *restrict aa, real *restrict bb, const real *restrict cc,
                                const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    for (int64_t j = 1; j < N; j++) aa[j * N + i] = aa[(j - 1) * N + i] + cc[j * N + i];
    for (int64_t j = 1; j < N; j++) bb[i * N + j] = bb[(i - 1) * N + j] + cc[i * N + j];
  }
}
