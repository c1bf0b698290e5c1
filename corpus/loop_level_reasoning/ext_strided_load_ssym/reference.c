#include <stdint.h>

void ext_strided_load_ssym_fp64(double *restrict dst, const double *restrict src, const int64_t N,
                                const int64_t SSYM, const double scale,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    dst[i] = src[i * SSYM] * scale;
  }
}

void ext_strided_load_ssym_fp32(float *restrict dst, const float *restrict src, const int64_t N,
                                const int64_t SSYM, const float scale, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    dst[i] = src[i * SSYM] * scale;
  }
}
