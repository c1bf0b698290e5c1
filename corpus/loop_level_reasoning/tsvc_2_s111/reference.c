#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s111)(real *restrict a, const real *restrict b, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i += 2) a[i] = a[i - 1] + b[i];
}
