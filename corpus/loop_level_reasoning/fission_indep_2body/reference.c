#include <stdint.h>

void fission_indep_2body_fp64(double *restrict a, double *restrict b, const double *restrict x,
                              const double *restrict y, const double *restrict z, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] = x[i] * y[i] + z[i];
    b[i] = x[i] - y[i] * z[i];
  }
}

void fission_indep_2body_fp32(float *restrict a, float *restrict b, const float *restrict x,
                              const float *restrict y, const float *restrict z, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] = x[i] * y[i] + z[i];
    b[i] = x[i] - y[i] * z[i];
  }
}
