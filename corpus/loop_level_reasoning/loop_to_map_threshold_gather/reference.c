#include <stdint.h>

void HPCAB_KERNEL(loop_to_map_threshold_gather)(const int64_t *restrict idx, real *restrict out,
                                                const real *restrict w, const real *restrict x,
                                                const real *restrict y, const int64_t N,
                                                uint8_t *restrict workspace,
                                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t k = 0; k < N; k++) {
      if (w[idx[i] * N + k] > (real)0.5) {
        out[i * N + k] = x[i * N + k] * (real)2.0;
      } else {
        out[i * N + k] = y[i * N + k] + (real)1.0;
      }
    }
  }
}
