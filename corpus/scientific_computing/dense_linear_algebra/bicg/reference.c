#include <stdint.h>

void HPCAB_KERNEL(bicg)(const real *restrict A, const real *restrict p, real *restrict q,
                        const real *restrict r, real *restrict s, const int64_t M, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < M; j++) s[j] = (real)0.0;
  for (int64_t i = 0; i < N; i++) {
    real acc = (real)0.0;
    for (int64_t j = 0; j < M; j++) {
      s[j] += r[i] * A[i * M + j];
      acc += A[i * M + j] * p[j];
    }
    q[i] = acc;
  }
}
