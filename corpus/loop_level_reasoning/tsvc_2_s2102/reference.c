#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s2102)(const real *restrict a, real *restrict aa, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) aa[j * N + i] = (real)0.0;
    aa[i * N + i] = a[i];
  }
}
