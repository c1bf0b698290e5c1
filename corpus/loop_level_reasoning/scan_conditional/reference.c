#include <stdint.h>

void scan_conditional_fp64(const double *restrict delta, const int64_t *restrict mask,
                           double *restrict out, const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    if (mask[i] > 0)
      out[i] = out[i - 1] + delta[i];
    else
      out[i] = out[i - 1];
  }
}

void scan_conditional_fp32(const float *restrict delta, const int64_t *restrict mask,
                           float *restrict out, const int64_t N, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    if (mask[i] > 0)
      out[i] = out[i - 1] + delta[i];
    else
      out[i] = out[i - 1];
  }
}
