#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s1244)(real *restrict a, const real *restrict b, const real *restrict c,
                                real *restrict d, const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    a[i] = b[i] + c[i] * c[i] + b[i] * b[i] + c[i];
    d[i] = a[i] + a[i + 1];
  }
}
