#include <stdint.h>

void HPCAB_KERNEL(reduce_2d)(const real *restrict A, real *restrict out, const int64_t M,
                             const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    real s = (real)0.0;
    for (int64_t j = 0; j < M; j++) s += A[i * M + j];
    out[i] = s;
  }
}
