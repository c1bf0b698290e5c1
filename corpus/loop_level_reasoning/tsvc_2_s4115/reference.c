#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s4115)(const real *restrict a, const real *restrict b,
                                const int32_t *restrict ip, real *restrict sum, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  for (int64_t i = 0; i < N; i++) s += a[i] * b[ip[i]];
  sum[0] = s;
}
