#include <stdint.h>

void loop_to_map_threshold_gather_fp64(const int64_t *restrict idx, double *restrict out,
                                       const double *restrict w, const double *restrict x,
                                       const double *restrict y, const int64_t N,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t k = 0; k < N; k++) {
      if (w[idx[i] * N + k] > 0.5) {
        out[i * N + k] = x[i * N + k] * 2.0;
      } else {
        out[i * N + k] = y[i * N + k] + 1.0;
      }
    }
  }
}

void loop_to_map_threshold_gather_fp32(const int64_t *restrict idx, float *restrict out,
                                       const float *restrict w, const float *restrict x,
                                       const float *restrict y, const int64_t N,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t k = 0; k < N; k++) {
      if (w[idx[i] * N + k] > 0.5f) {
        out[i * N + k] = x[i * N + k] * 2.0f;
      } else {
        out[i * N + k] = y[i * N + k] + 1.0f;
      }
    }
  }
}
