#include <stdint.h>

void fission_gather_2body_fp64(const double *restrict a, double *restrict b,
                               const double *restrict c, double *restrict e,
                               const int64_t *restrict idx, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    b[i] = a[idx[i]];
    e[i] = c[idx[i]];
  }
}

void fission_gather_2body_fp32(const float *restrict a, float *restrict b, const float *restrict c,
                               float *restrict e, const int64_t *restrict idx, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    b[i] = a[idx[i]];
    e[i] = c[idx[i]];
  }
}
