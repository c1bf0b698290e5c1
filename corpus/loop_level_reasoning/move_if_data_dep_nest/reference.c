#include <stdint.h>

void move_if_data_dep_nest_fp64(const double *restrict cond, double *restrict out,
                                const double *restrict src, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (cond[i] > 0.0) {
      for (int64_t j = 0; j < N; j++) out[i * N + j] = src[i * N + j] * 2.0;
    }
  }
}

void move_if_data_dep_nest_fp32(const float *restrict cond, float *restrict out,
                                const float *restrict src, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (cond[i] > 0.0f) {
      for (int64_t j = 0; j < N; j++) out[i * N + j] = src[i * N + j] * 2.0f;
    }
  }
}
