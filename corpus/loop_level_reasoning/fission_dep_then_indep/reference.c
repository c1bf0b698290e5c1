#include <stdint.h>

void fission_dep_then_indep_fp64(double *restrict a, double *restrict b, const double *restrict x,
                                 const double *restrict y, const int64_t N,
                                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  a[0] = x[0];
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i - 1] + x[i];
    b[i] = y[i] * 2.0;
  }
}

void fission_dep_then_indep_fp32(float *restrict a, float *restrict b, const float *restrict x,
                                 const float *restrict y, const int64_t N,
                                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  a[0] = x[0];
  for (int64_t i = 1; i < N; i++) {
    a[i] = a[i - 1] + x[i];
    b[i] = y[i] * 2.0f;
  }
}
