#include <stdint.h>

void ext_tile_2d_sym_fp64(const double *restrict a, double *restrict b, const int64_t N,
                          const int64_t T, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t ti = 0; ti < N; ti += T) {
    for (int64_t tj = 0; tj < N; tj += T) {
      for (int64_t i = ti; i < ti + T; i++) {
        for (int64_t j = tj; j < tj + T; j++) {
          b[i * N + j] = a[i * N + j] * 2.0;
        }
      }
    }
  }
}

void ext_tile_2d_sym_fp32(const float *restrict a, float *restrict b, const int64_t N,
                          const int64_t T, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t ti = 0; ti < N; ti += T) {
    for (int64_t tj = 0; tj < N; tj += T) {
      for (int64_t i = ti; i < ti + T; i++) {
        for (int64_t j = tj; j < tj + T; j++) {
          b[i * N + j] = a[i * N + j] * 2.0f;
        }
      }
    }
  }
}
