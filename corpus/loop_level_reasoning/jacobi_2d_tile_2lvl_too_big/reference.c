#include <stdint.h>

void HPCAB_KERNEL(jacobi_2d_tile_2lvl_too_big)(real *restrict A, real *restrict B, const int64_t N,
                                               const int64_t TSTEPS, uint8_t *restrict workspace,
                                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t W = 1024;
  for (int64_t t = 0; t < TSTEPS; t++) {
    for (int64_t ii = 1; ii < N - 1; ii += W) {
      const int64_t ie = ii + W < N - 1 ? ii + W : N - 1;
      for (int64_t jj = 1; jj < N - 1; jj += W) {
        const int64_t je = jj + W < N - 1 ? jj + W : N - 1;
        for (int64_t i = ii; i < ie; i++) {
          for (int64_t j = jj; j < je; j++) {
            B[i * N + j] = (real)0.2 * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (j + 1)] +
                                  A[(i - 1) * N + j] + A[(i + 1) * N + j]);
          }
        }
      }
    }
    for (int64_t ii = 1; ii < N - 1; ii += W) {
      const int64_t ie = ii + W < N - 1 ? ii + W : N - 1;
      for (int64_t jj = 1; jj < N - 1; jj += W) {
        const int64_t je = jj + W < N - 1 ? jj + W : N - 1;
        for (int64_t i = ii; i < ie; i++) {
          for (int64_t j = jj; j < je; j++) {
            A[i * N + j] = (real)0.2 * (B[i * N + j] + B[i * N + (j - 1)] + B[i * N + (j + 1)] +
                                  B[(i - 1) * N + j] + B[(i + 1) * N + j]);
          }
        }
      }
    }
  }
}
