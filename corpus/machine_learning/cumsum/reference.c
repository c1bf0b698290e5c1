#include <stdint.h>

void HPCAB_KERNEL(cumsum)(real *restrict out, const real *restrict x, const int64_t D,
                          const int64_t N, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    real s = (real)0.0;
    for (int64_t j = 0; j < D; j++) {
      s += x[i * D + j];
      out[i * D + j] = s;
    }
  }
}
