#include <stdint.h>

void tsvc_2_s4116_fp64(const double *restrict a, const double *restrict aa,
                       const int32_t *restrict ip, double *restrict sum, const int64_t N,
                       const int64_t inc, const int64_t j, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double s = 0.0;
  for (int64_t i = 0; i < N - 1; i++) {
    const int64_t off = inc + i;
    s += a[off] * aa[(j - 1) * N + ip[i]];
  }
  sum[0] = s;
}

void tsvc_2_s4116_fp32(const float *restrict a, const float *restrict aa,
                       const int32_t *restrict ip, float *restrict sum, const int64_t N,
                       const int64_t inc, const int64_t j, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float s = 0.0f;
  for (int64_t i = 0; i < N - 1; i++) {
    const int64_t off = inc + i;
    s += a[off] * aa[(j - 1) * N + ip[i]];
  }
  sum[0] = s;
}
