#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s4116)(const real *restrict a, const real *restrict aa,
                                const int32_t *restrict ip, real *restrict sum, const int64_t N,
                                const int64_t inc, const int64_t j, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  for (int64_t i = 0; i < N - 1; i++) {
    const int64_t off = inc + i;
    s += a[off] * aa[(j - 1) * N + ip[i]];
  }
  sum[0] = s;
}
