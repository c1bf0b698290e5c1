#include <stdint.h>

void scan_multi_5carry_fp64(double *restrict acc, const double *restrict delta, const int64_t N,
                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    acc[0 * N + i] = acc[0 * N + i - 1] + delta[0 * N + i];
    acc[1 * N + i] = acc[1 * N + i - 1] + delta[1 * N + i];
    acc[2 * N + i] = acc[2 * N + i - 1] + delta[2 * N + i];
    acc[3 * N + i] = acc[3 * N + i - 1] + delta[3 * N + i];
    acc[4 * N + i] = acc[4 * N + i - 1] + delta[4 * N + i];
  }
}

void scan_multi_5carry_fp32(float *restrict acc, const float *restrict delta, const int64_t N,
                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    acc[0 * N + i] = acc[0 * N + i - 1] + delta[0 * N + i];
    acc[1 * N + i] = acc[1 * N + i - 1] + delta[1 * N + i];
    acc[2 * N + i] = acc[2 * N + i - 1] + delta[2 * N + i];
    acc[3 * N + i] = acc[3 * N + i - 1] + delta[3 * N + i];
    acc[4 * N + i] = acc[4 * N + i - 1] + delta[4 * N + i];
  }
}
