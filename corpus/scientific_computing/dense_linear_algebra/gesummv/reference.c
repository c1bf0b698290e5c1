#include <stdint.h>

void HPCAB_KERNEL(gesummv)(const real *restrict A, const real *restrict B, const real *restrict x,
                           real *restrict y, const int64_t N, const real alpha, const real beta,
                           uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    real ta = (real)0.0;
    real tb = (real)0.0;
    for (int64_t j = 0; j < N; j++) {
      ta += A[i * N + j] * x[j];
      tb += B[i * N + j] * x[j];
    }
    y[i] = alpha * ta + beta * tb;
  }
}
