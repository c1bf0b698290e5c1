#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s233)(real *restrict aa, real *restrict bb, const real *restrict cc,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    for (int64_t j = 1; j < N; j++) aa[j * N + i] = aa[(j - 1) * N + i] + cc[j * N + i];
    for (int64_t j = 1; j < N; j++) bb[j * N + i] = bb[j * N + i - 1] + cc[j * N + i];
  }
}
