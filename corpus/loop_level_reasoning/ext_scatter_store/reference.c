#include <stdint.h>

void HPCAB_KERNEL(ext_scatter_store)(real *restrict dst, const int64_t *restrict idx,
                                     const real *restrict src, const int64_t N, const real scale,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    dst[idx[i]] = src[i] * scale;
  }
}
