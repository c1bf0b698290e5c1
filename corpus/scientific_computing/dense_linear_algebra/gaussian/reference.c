#include <stdint.h>

void HPCAB_KERNEL(gaussian)(real *restrict A, real *restrict b, real *restrict x, const int64_t N,
                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* forward elimination; the multiplier of row i at step k is stored in A[i,k] */
  for (int64_t k = 0; k < N - 1; k++) {
    for (int64_t i = k + 1; i < N; i++) {
      const real m = A[i * N + k] / A[k * N + k];
      for (int64_t j = k + 1; j < N; j++) A[i * N + j] -= m * A[k * N + j];
      A[i * N + k] = m;
      b[i] -= m * b[k];
    }
  }
  /* back substitution */
  for (int64_t i = N - 1; i >= 0; i--) {
    real s = (real)0.0;
    for (int64_t j = i + 1; j < N; j++) s += A[i * N + j] * x[j];
    x[i] = (b[i] - s) / A[i * N + i];
  }
}
