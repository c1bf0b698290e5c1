#include <stdint.h>

void HPCAB_KERNEL(gemver)(real *restrict A, const real *restrict u1, const real *restrict u2,
                          const real *restrict v1, const real *restrict v2, real *restrict w,
                          real *restrict x, const real *restrict y, const real *restrict z,
                          const int64_t N, const real alpha, const real beta,
                          uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) A[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
  for (int64_t i = 0; i < N; i++) {
    real acc = (real)0.0;
    for (int64_t j = 0; j < N; j++) acc += A[j * N + i] * y[j];
    x[i] += beta * acc + z[i];
  }
  for (int64_t i = 0; i < N; i++) {
    real acc = (real)0.0;
    for (int64_t j = 0; j < N; j++) acc += A[i * N + j] * x[j];
    w[i] += alpha * acc;
  }
}
