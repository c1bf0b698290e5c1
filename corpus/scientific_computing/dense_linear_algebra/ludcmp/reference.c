#include <stdint.h>

void HPCAB_KERNEL(ludcmp)(real *restrict A, const real *restrict b, real *restrict x,
                          real *restrict y, const int64_t N, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < i; j++) {
      real w = A[i * N + j];
      for (int64_t k = 0; k < j; k++) w -= A[i * N + k] * A[k * N + j];
      A[i * N + j] = w / A[j * N + j];
    }
    for (int64_t j = i; j < N; j++) {
      real w = A[i * N + j];
      for (int64_t k = 0; k < i; k++) w -= A[i * N + k] * A[k * N + j];
      A[i * N + j] = w;
    }
  }
  for (int64_t i = 0; i < N; i++) {
    real w = b[i];
    for (int64_t j = 0; j < i; j++) w -= A[i * N + j] * y[j];
    y[i] = w;
  }
  for (int64_t i = N - 1; i >= 0; i--) {
    real w = y[i];
    for (int64_t j = i + 1; j < N; j++) w -= A[i * N + j] * x[j];
    x[i] = w / A[i * N + i];
  }
}
