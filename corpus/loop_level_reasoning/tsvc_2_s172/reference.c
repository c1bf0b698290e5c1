#include <stdint.h>

void tsvc_2_s172_fp64(double *restrict a, const double *restrict b, const int64_t N,
                      const int64_t n1, const int64_t n3, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = n1 - 1; i < N; i += n3) a[i] += b[i];
}

void tsvc_2_s172_fp32(float *restrict a, const float *restrict b, const int64_t N, const int64_t n1,
                      const int64_t n3, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = n1 - 1; i < N; i += n3) a[i] += b[i];
}
