#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s235)(real *restrict a, real *restrict aa, const real *restrict b,
                               const real *restrict bb, const real *restrict c, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] += b[i] * c[i];
    for (int64_t j = 1; j < N; j++) aa[j * N + i] = aa[(j - 1) * N + i] + bb[j * N + i] * a[i];
  }
}
