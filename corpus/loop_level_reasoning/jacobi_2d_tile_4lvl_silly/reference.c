#include <stdint.h>

void HPCAB_KERNEL(jacobi_2d_tile_4lvl_silly)(real *restrict A, real *restrict B, const int64_t N,
                                             const int64_t TSTEPS, uint8_t *restrict workspace,
                                             const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t W1 = 13, W2 = 7, W3 = 19, W4 = 3;
  const int64_t E = N - 1;  /* every level clips at the last interior index + 1 */
  for (int64_t t = 0; t < TSTEPS; t++) {
    for (int64_t i1 = 1; i1 < E; i1 += W1) {
      const int64_t i1e = i1 + W1 < E ? i1 + W1 : E;
      for (int64_t j1 = 1; j1 < E; j1 += W1) {
        const int64_t j1e = j1 + W1 < E ? j1 + W1 : E;
        for (int64_t i2 = i1; i2 < i1e; i2 += W2) {
          const int64_t i2e = i2 + W2 < E ? i2 + W2 : E;
          for (int64_t j2 = j1; j2 < j1e; j2 += W2) {
            const int64_t j2e = j2 + W2 < E ? j2 + W2 : E;
            for (int64_t i3 = i2; i3 < i2e; i3 += W3) {
              const int64_t i3e = i3 + W3 < E ? i3 + W3 : E;
              for (int64_t j3 = j2; j3 < j2e; j3 += W3) {
                const int64_t j3e = j3 + W3 < E ? j3 + W3 : E;
                for (int64_t i4 = i3; i4 < i3e; i4 += W4) {
                  const int64_t i4e = i4 + W4 < E ? i4 + W4 : E;
                  for (int64_t j4 = j3; j4 < j3e; j4 += W4) {
                    const int64_t j4e = j4 + W4 < E ? j4 + W4 : E;
                    for (int64_t i = i4; i < i4e; i++) {
                      for (int64_t j = j4; j < j4e; j++) {
                        B[i * N + j] = (real)0.2 * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (j + 1)] +
                                              A[(i - 1) * N + j] + A[(i + 1) * N + j]);
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    for (int64_t i = 1; i < N - 1; i++) {
      for (int64_t j = 1; j < N - 1; j++) {
        A[i * N + j] = B[i * N + j];
      }
    }
  }
}
