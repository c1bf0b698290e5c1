#include <stdint.h>

void HPCAB_KERNEL(quasi_affine_mod_k_stripe)(real *restrict a, const real *restrict b,
                                             const real *restrict c, const int64_t K,
                                             const int64_t N, uint8_t *restrict workspace,
                                             const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (i % K == 0)
      a[i] = b[i] * (real)2.0;
    else
      a[i] = c[i];
  }
}
