#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s256)(real *restrict a, real *restrict aa, const real *restrict bb,
                               const real *restrict d, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 1; j < N; j++) {
      a[j] = (real)1.0 - a[j - 1];
      aa[j * N + i] = a[j] + bb[j * N + i] * d[j];
    }
  }
}
