#include <stdint.h>

void ext_peel_multi_back_fp64(double *restrict a, const double *restrict b, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] = b[i] * 2.0;
    if (i == N - 1) {
      a[N - 2] = a[N - 2] + 1.0;
    } else if (i == N - 2) {
      a[N - 3] = a[N - 3] + 1.0;
    }
  }
}

void ext_peel_multi_back_fp32(float *restrict a, const float *restrict b, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] = b[i] * 2.0f;
    if (i == N - 1) {
      a[N - 2] = a[N - 2] + 1.0f;
    } else if (i == N - 2) {
      a[N - 3] = a[N - 3] + 1.0f;
    }
  }
}
