#include <stdint.h>

void scaled_add_fp64(const double *restrict x, double *restrict y, const int64_t N,
                     const double alpha, uint8_t *restrict workspace,
                     const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) y[i] = y[i] + alpha * x[i];
}

void scaled_add_fp32(const float *restrict x, float *restrict y, const int64_t N, const float alpha,
                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) y[i] = y[i] + alpha * x[i];
}
