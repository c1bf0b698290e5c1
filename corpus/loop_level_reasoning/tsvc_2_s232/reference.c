#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s232)(real *restrict aa, const real *restrict bb, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 1; j < N; j++)
    for (int64_t i = 1; i <= j; i++)
      aa[j * N + i] = aa[j * N + i - 1] * aa[j * N + i - 1] + bb[j * N + i];
}
