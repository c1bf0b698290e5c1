#include <stdint.h>

void tsvc_2_s1232_fp64(double *restrict aa, const double *restrict bb, const double *restrict cc,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++)
    for (int64_t i = j; i < N; i++) aa[i * N + j] = bb[i * N + j] + cc[i * N + j];
}

void tsvc_2_s1232_fp32(float *restrict aa, const float *restrict bb, const float *restrict cc,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < N; j++)
    for (int64_t i = j; i < N; i++) aa[i * N + j] = bb[i * N + j] + cc[i * N + j];
}
