#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s4114)(real *restrict a, const real *restrict b, const real *restrict c,
                                const real *restrict d, const int32_t *restrict ip, const int64_t N,
                                const int64_t n1, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = n1 - 1; i < N; i++) {
    const int64_t k = ip[i];
    a[i] = b[i] + c[N - k + 1 - 2] * d[i];
  }
}
