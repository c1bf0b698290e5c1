#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s261)(real *restrict a, const real *restrict b, real *restrict c,
                               const real *restrict d, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    real t = a[i] + b[i];
    a[i] = t + c[i - 1];
    t = c[i] * d[i];
    c[i] = t;
  }
}
