#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(gramschmidt)(real *restrict A, real *restrict Q, real *restrict R,
                               const int64_t M, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t k = 0; k < N; k++) {
    real nrm = (real)0.0;
    for (int64_t i = 0; i < M; i++) nrm += A[i * N + k] * A[i * N + k];
    R[k * N + k] = sqrt(nrm);
    for (int64_t i = 0; i < M; i++) Q[i * N + k] = A[i * N + k] / R[k * N + k];
    for (int64_t j = 0; j < k; j++) R[k * N + j] = (real)0.0;
    for (int64_t j = k + 1; j < N; j++) {
      real acc = (real)0.0;
      for (int64_t i = 0; i < M; i++) acc += Q[i * N + k] * A[i * N + j];
      R[k * N + j] = acc;
      for (int64_t i = 0; i < M; i++) A[i * N + j] -= Q[i * N + k] * R[k * N + j];
    }
  }
}
