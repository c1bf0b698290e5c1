#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_vag)(real *restrict a, const real *restrict b, const int32_t *restrict ip,
                              const int64_t N, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[ip[i]];
}
