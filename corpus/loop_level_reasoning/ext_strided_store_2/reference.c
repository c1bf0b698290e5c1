#include <stdint.h>

void ext_strided_store_2_fp64(double *restrict dst, const double *restrict src, const int64_t N,
                              const double scale, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    dst[i * 2] = src[i] * scale;
  }
}

void ext_strided_store_2_fp32(float *restrict dst, const float *restrict src, const int64_t N,
                              const float scale, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    dst[i * 2] = src[i] * scale;
  }
}
