#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s115)(real *restrict a, const real *restrict aa, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++)
    for (int64_t i = j + 1; i < N; i++) a[i] -= aa[j * N + i] * a[j];
}
