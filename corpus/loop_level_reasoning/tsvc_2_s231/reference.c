#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s231)(real *restrict aa, const real *restrict bb, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 1; j < N; j++) aa[j * N + i] = aa[(j - 1) * N + i] + bb[j * N + i];
}
