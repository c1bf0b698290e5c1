#include <stdint.h>

void loop_to_map_disjoint_strided_fp64(double *restrict a, const double *restrict b,
                                       const int64_t N, uint8_t *restrict workspace,
                                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[2 * i] = b[i] + 1.0;
    a[2 * i + 1] = b[i] * 2.0;
  }
}

void loop_to_map_disjoint_strided_fp32(float *restrict a, const float *restrict b, const int64_t N,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[2 * i] = b[i] + 1.0f;
    a[2 * i + 1] = b[i] * 2.0f;
  }
}
