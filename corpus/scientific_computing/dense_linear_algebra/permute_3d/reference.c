#include <stdint.h>

void HPCAB_KERNEL(permute_3d)(const real *restrict A, real *restrict B, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++)
      for (int64_t k = 0; k < N; k++) B[(k * N + i) * N + j] = A[(i * N + j) * N + k];
}
