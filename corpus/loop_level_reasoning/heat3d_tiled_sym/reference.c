#include <stdint.h>

void heat3d_tiled_sym_fp64(const double *restrict a, double *restrict b, const int64_t N,
                           const int64_t T, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t kk = 1; kk < N - 1 - T; kk += T) {
    for (int64_t jj = 1; jj < N - 1 - T; jj += T) {
      for (int64_t ii = 1; ii < N - 1 - T; ii += T) {
        for (int64_t k = kk; k < kk + T; k++) {
          for (int64_t j = jj; j < jj + T; j++) {
            for (int64_t i = ii; i < ii + T; i++) {
              const int64_t c = (k * N + j) * N + i;
              b[c] = 0.125 * (a[c + N * N] - 2.0 * a[c] + a[c - N * N]) +
                     0.125 * (a[c + N] - 2.0 * a[c] + a[c - N]) +
                     0.125 * (a[c + 1] - 2.0 * a[c] + a[c - 1]) + a[c];
            }
          }
        }
      }
    }
  }
}

void heat3d_tiled_sym_fp32(const float *restrict a, float *restrict b, const int64_t N,
                           const int64_t T, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t kk = 1; kk < N - 1 - T; kk += T) {
    for (int64_t jj = 1; jj < N - 1 - T; jj += T) {
      for (int64_t ii = 1; ii < N - 1 - T; ii += T) {
        for (int64_t k = kk; k < kk + T; k++) {
          for (int64_t j = jj; j < jj + T; j++) {
            for (int64_t i = ii; i < ii + T; i++) {
              const int64_t c = (k * N + j) * N + i;
              b[c] = 0.125f * (a[c + N * N] - 2.0f * a[c] + a[c - N * N]) +
                     0.125f * (a[c + N] - 2.0f * a[c] + a[c - N]) +
                     0.125f * (a[c + 1] - 2.0f * a[c] + a[c - 1]) + a[c];
            }
          }
        }
      }
    }
  }
}
