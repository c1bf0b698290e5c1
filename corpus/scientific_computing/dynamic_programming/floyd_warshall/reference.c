#include <stdint.h>

void HPCAB_KERNEL(floyd_warshall)(real *restrict path, const int64_t N, uint8_t *restrict workspace,
                                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t k = 0; k < N; k++)
    for (int64_t i = 0; i < N; i++) {
      const real pik = path[i * N + k];
      for (int64_t j = 0; j < N; j++) {
        const real d = pik + path[k * N + j];
        if (d < path[i * N + j]) path[i * N + j] = d;
      }
    }
}
