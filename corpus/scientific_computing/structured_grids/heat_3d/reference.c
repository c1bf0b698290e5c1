#include <stdint.h>

void HPCAB_KERNEL(heat_3d)(real *restrict A, real *restrict B, const int64_t N,
                           const int64_t TSTEPS, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t s = N * N;
  for (int64_t t = 0; t < TSTEPS; t++) {
    for (int64_t i = 1; i < N - 1; i++)
      for (int64_t j = 1; j < N - 1; j++)
        for (int64_t k = 1; k < N - 1; k++) {
          const int64_t p = i * s + j * N + k;
          B[p] = (real)0.125 * (A[p + s] - (real)2.0 * A[p] + A[p - s]) +
                 (real)0.125 * (A[p + N] - (real)2.0 * A[p] + A[p - N]) +
                 (real)0.125 * (A[p + 1] - (real)2.0 * A[p] + A[p - 1]) + A[p];
        }
    for (int64_t i = 1; i < N - 1; i++)
      for (int64_t j = 1; j < N - 1; j++)
        for (int64_t k = 1; k < N - 1; k++) {
          const int64_t p = i * s + j * N + k;
          A[p] = (real)0.125 * (B[p + s] - (real)2.0 * B[p] + B[p - s]) +
                 (real)0.125 * (B[p + N] - (real)2.0 * B[p] + B[p - N]) +
                 (real)0.125 * (B[p + 1] - (real)2.0 * B[p] + B[p - 1]) + B[p];
        }
  }
}
