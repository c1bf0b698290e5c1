#include <stdint.h>

void HPCAB_KERNEL(ext_war_unit)(real *restrict a, const real *restrict b, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) a[i] = a[i + 1] + b[i];
}
