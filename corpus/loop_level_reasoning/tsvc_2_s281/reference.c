#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s281)(real *restrict a, real *restrict b, const real *restrict c,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const real x = a[N - i - 1] + b[i] * c[i];
    a[i] = x - (real)1.0;
    b[i] = x;
  }
}
