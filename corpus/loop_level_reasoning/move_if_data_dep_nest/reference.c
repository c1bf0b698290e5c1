#include <stdint.h>

void HPCAB_KERNEL(move_if_data_dep_nest)(const real *restrict cond, real *restrict out,
                                         const real *restrict src, const int64_t N,
                                         uint8_t *restrict workspace,
                                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (cond[i] > (real)0.0) {
      for (int64_t j = 0; j < N; j++) out[i * N + j] = src[i * N + j] * (real)2.0;
    }
  }
}
