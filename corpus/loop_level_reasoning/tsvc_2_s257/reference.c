#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s257)(real *restrict a, real *restrict aa, const real *restrict bb,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      a[i] = aa[j * N + i] - a[i - 1];
      aa[j * N + i] = a[i] + bb[j * N + i];
    }
  }
}
