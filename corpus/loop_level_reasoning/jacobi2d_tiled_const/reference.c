#include <stdint.h>

void HPCAB_KERNEL(jacobi2d_tiled_const)(const real *restrict a, real *restrict b, const int64_t N,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t T = 64;

  for (int64_t ii = 1; ii < N - 1 - T; ii += T) {
    for (int64_t jj = 1; jj < N - 1 - T; jj += T) {
      for (int64_t i = ii; i < ii + T; i++) {
        for (int64_t j = jj; j < jj + T; j++) {
          b[i * N + j] = (real)0.2 * (a[i * N + j] + a[(i - 1) * N + j] + a[(i + 1) * N + j] +
                                a[i * N + (j - 1)] + a[i * N + (j + 1)]);
        }
      }
    }
  }
}
