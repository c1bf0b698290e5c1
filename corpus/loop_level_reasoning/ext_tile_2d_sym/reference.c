#include <stdint.h>

void HPCAB_KERNEL(ext_tile_2d_sym)(const real *restrict a, real *restrict b, const int64_t N,
                                   const int64_t T, uint8_t *restrict workspace,
                                   const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t ti = 0; ti < N; ti += T) {
    for (int64_t tj = 0; tj < N; tj += T) {
      for (int64_t i = ti; i < ti + T; i++) {
        for (int64_t j = tj; j < tj + T; j++) {
          b[i * N + j] = a[i * N + j] * (real)2.0;
        }
      }
    }
  }
}
