#include <stdint.h>

void HPCAB_KERNEL(jacobi2d_double_tiled_const)(const real *restrict a, real *restrict b,
                                               const int64_t N, uint8_t *restrict workspace,
                                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t T1 = 64;
  const int64_t T2 = 8;

  for (int64_t ii = 1; ii < N - 1 - T1; ii += T1) {
    for (int64_t jj = 1; jj < N - 1 - T1; jj += T1) {
      for (int64_t iii = ii; iii < ii + T1; iii += T2) {
        for (int64_t jjj = jj; jjj < jj + T1; jjj += T2) {
          for (int64_t i = iii; i < iii + T2; i++) {
            for (int64_t j = jjj; j < jjj + T2; j++) {
              b[i * N + j] = (real)0.2 * (a[i * N + j] + a[(i - 1) * N + j] + a[(i + 1) * N + j] +
                                    a[i * N + (j - 1)] + a[i * N + (j + 1)]);
            }
          }
        }
      }
    }
  }
}
