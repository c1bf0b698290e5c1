#include <stdint.h>

void HPCAB_KERNEL(quasi_affine_pairwise_sum)(const real *restrict a, real *restrict b,
                                             const int64_t N, uint8_t *restrict workspace,
                                             const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) b[i] = a[2 * i] + a[2 * i + 1];
}
