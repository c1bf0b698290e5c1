#include <stdint.h>

void tsvc_2_s132_fp64(double *restrict aa, const double *restrict b, const double *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = 0;
  const int64_t j = m;
  const int64_t k = m + 1;
  for (int64_t i = 1; i < N; i++) aa[j * N + i] = aa[k * N + i - 1] + b[i] * c[1];
}

void tsvc_2_s132_fp32(float *restrict aa, const float *restrict b, const float *restrict c,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t m = 0;
  const int64_t j = m;
  const int64_t k = m + 1;
  for (int64_t i = 1; i < N; i++) aa[j * N + i] = aa[k * N + i - 1] + b[i] * c[1];
}
