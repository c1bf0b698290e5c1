#include <stdint.h>

void HPCAB_KERNEL(relu)(real *restrict out, const real *restrict x, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) out[i] = x[i] > (real)0.0 ? x[i] : (real)0.0;
}
