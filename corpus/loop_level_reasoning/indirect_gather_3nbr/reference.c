#include <stdint.h>

void indirect_gather_3nbr_fp64(const double *restrict field, const int64_t *restrict idx,
                               double *restrict out, const double *restrict w, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t c = 0; c < N; c++) {
    out[c] = w[c * 3 + 0] * field[idx[c * 3 + 0]] + w[c * 3 + 1] * field[idx[c * 3 + 1]] +
             w[c * 3 + 2] * field[idx[c * 3 + 2]];
  }
}

void indirect_gather_3nbr_fp32(const float *restrict field, const int64_t *restrict idx,
                               float *restrict out, const float *restrict w, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t c = 0; c < N; c++) {
    out[c] = w[c * 3 + 0] * field[idx[c * 3 + 0]] + w[c * 3 + 1] * field[idx[c * 3 + 1]] +
             w[c * 3 + 2] * field[idx[c * 3 + 2]];
  }
}
