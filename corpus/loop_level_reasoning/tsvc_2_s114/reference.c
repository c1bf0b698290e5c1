#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s114)(real *restrict aa, const real *restrict bb, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < i; j++) aa[i * N + j] = aa[j * N + i] + bb[i * N + j];
}
