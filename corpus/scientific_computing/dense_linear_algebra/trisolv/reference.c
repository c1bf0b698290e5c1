#include <stdint.h>

void trisolv_fp64(const double *restrict L, const double *restrict b, double *restrict x,
                  const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    double acc = b[i];
    for (int64_t j = 0; j < i; j++) acc -= L[i * N + j] * x[j];
    x[i] = acc / L[i * N + i];
  }
}

void trisolv_fp32(const float *restrict L, const float *restrict b, float *restrict x,
                  const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    float acc = b[i];
    for (int64_t j = 0; j < i; j++) acc -= L[i * N + j] * x[j];
    x[i] = acc / L[i * N + i];
  }
}
