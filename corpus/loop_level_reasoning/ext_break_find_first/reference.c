#include <stdint.h>

void ext_break_find_first_fp64(double *restrict a, const double *restrict b,
                               const double *restrict c, const double *restrict d,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (d[i] * (double)N < 2.0) break;
    a[i] += b[i] * c[i];
  }
}

void ext_break_find_first_fp32(float *restrict a, const float *restrict b,
                               const float *restrict c, const float *restrict d,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (d[i] * (float)N < 2.0f) break;
    a[i] += b[i] * c[i];
  }
}
