#include <stdint.h>

void HPCAB_KERNEL(heat3d_tiled_sym)(const real *restrict a, real *restrict b, const int64_t N,
                                    const int64_t T, uint8_t *restrict workspace,
                                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t kk = 1; kk < N - 1 - T; kk += T) {
    for (int64_t jj = 1; jj < N - 1 - T; jj += T) {
      for (int64_t ii = 1; ii < N - 1 - T; ii += T) {
        for (int64_t k = kk; k < kk + T; k++) {
          for (int64_t j = jj; j < jj + T; j++) {
            for (int64_t i = ii; i < ii + T; i++) {
              const int64_t c = (k * N + j) * N + i;
              b[c] = (real)0.125 * (a[c + N * N] - (real)2.0 * a[c] + a[c - N * N]) +
                     (real)0.125 * (a[c + N] - (real)2.0 * a[c] + a[c - N]) +
                     (real)0.125 * (a[c + 1] - (real)2.0 * a[c] + a[c - 1]) + a[c];
            }
          }
        }
      }
    }
  }
}
