#include <stdint.h>

void ext_modular_wrap_fp64(double *restrict a, const double *restrict b, const int64_t K,
                           const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[(i + K) % N] = b[i];
  }
}

void ext_modular_wrap_fp32(float *restrict a, const float *restrict b, const int64_t K,
                           const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[(i + K) % N] = b[i];
  }
}
