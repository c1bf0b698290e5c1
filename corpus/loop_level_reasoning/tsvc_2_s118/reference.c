#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s118)(real *restrict a, const real *restrict bb, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 0; j <= i - 1; j++) a[i] += bb[j * N + i] * a[i - j - 1];
}
