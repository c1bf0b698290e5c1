#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(cholesky2)(real *restrict A, const int64_t N, uint8_t *restrict workspace,
                             const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < i; j++) {
      real s = A[i * N + j];
      for (int64_t k = 0; k < j; k++) s -= A[i * N + k] * A[j * N + k];
      A[i * N + j] = s / A[j * N + j];
    }
    real d = A[i * N + i];
    for (int64_t k = 0; k < i; k++) d -= A[i * N + k] * A[i * N + k];
    A[i * N + i] = sqrt(d);
  }
}
