#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s174)(real *restrict a, const real *restrict b, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t M = N / 2;
  for (int64_t i = 0; i < M; i++) a[i + M] = a[i] + b[i];
}
