#include <stdint.h>

void doitgen_fp64(double *restrict A, const double *restrict C4, double *restrict sum,
                  const int64_t NP, const int64_t NQ, const int64_t NR,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t r = 0; r < NR; r++)
    for (int64_t q = 0; q < NQ; q++) {
      double *restrict row = A + (r * NQ + q) * NP;
      for (int64_t p = 0; p < NP; p++) {
        double acc = 0.0;
        for (int64_t s = 0; s < NP; s++) acc += row[s] * C4[s * NP + p];
        sum[p] = acc;
      }
      for (int64_t p = 0; p < NP; p++) row[p] = sum[p];
    }
}

void doitgen_fp32(float *restrict A, const float *restrict C4, float *restrict sum,
                  const int64_t NP, const int64_t NQ, const int64_t NR,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t r = 0; r < NR; r++)
    for (int64_t q = 0; q < NQ; q++) {
      float *restrict row = A + (r * NQ + q) * NP;
      for (int64_t p = 0; p < NP; p++) {
        float acc = 0.0f;
        for (int64_t s = 0; s < NP; s++) acc += row[s] * C4[s * NP + p];
        sum[p] = acc;
      }
      for (int64_t p = 0; p < NP; p++) row[p] = sum[p];
    }
}
