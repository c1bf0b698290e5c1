#include <stdint.h>

void HPCAB_KERNEL(reduce_inner_carry)(const real *restrict a, real *restrict out, const int64_t N,
                                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    real s = (real)0.0;
    for (int64_t j = 0; j < N; j++) s = s + a[i * N + j];
    out[i] = s;
  }
}
