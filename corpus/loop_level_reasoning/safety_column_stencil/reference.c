#include <stdint.h>

void HPCAB_KERNEL(safety_column_stencil)(real *restrict a, const real *restrict bb, const int64_t N,
                                         uint8_t *restrict workspace,
                                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 0; j < N; j++) a[i * N + j] = a[(i - 1) * N + j] + bb[i * N + j];
}
