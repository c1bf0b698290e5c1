#include <stdint.h>

void HPCAB_KERNEL(ext_strided_load_2)(real *restrict dst, const real *restrict src, const int64_t N,
                                      const real scale, uint8_t *restrict workspace,
                                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    dst[i] = src[i * 2] * scale;
  }
}
