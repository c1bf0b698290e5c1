#include <stdint.h>

void HPCAB_KERNEL(fission_gather_2body)(const real *restrict a, real *restrict b,
                                        const real *restrict c, real *restrict e,
                                        const int64_t *restrict idx, const int64_t N,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    b[i] = a[idx[i]];
    e[i] = c[idx[i]];
  }
}
