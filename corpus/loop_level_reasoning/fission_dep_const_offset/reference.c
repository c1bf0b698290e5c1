#include <stdint.h>

void fission_dep_const_offset_fp64(double *restrict a, double *restrict b,
                                   const double *restrict x, const double *restrict y,
                                   const double *restrict z, const int64_t N,
                                   uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  a[0] = x[0];
  a[1] = x[1];
  for (int64_t i = 2; i < N; i++) {
    a[i] = a[i - 2] + x[i];
    b[i] = y[i] * z[i];
  }
}

void fission_dep_const_offset_fp32(float *restrict a, float *restrict b, const float *restrict x,
                                   const float *restrict y, const float *restrict z,
                                   const int64_t N, uint8_t *restrict workspace,
                                   const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  a[0] = x[0];
  a[1] = x[1];
  for (int64_t i = 2; i < N; i++) {
    a[i] = a[i - 2] + x[i];
    b[i] = y[i] * z[i];
  }
}
