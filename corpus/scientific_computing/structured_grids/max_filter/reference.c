#include <stdint.h>

void HPCAB_KERNEL(max_filter)(const real *restrict img, real *restrict out, const int64_t H,
                              const int64_t W, const int64_t r, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < H; i++) {
    const int64_t i0 = i - r > 0 ? i - r : 0;
    const int64_t i1 = i + r < H - 1 ? i + r : H - 1;
    for (int64_t j = 0; j < W; j++) {
      const int64_t j0 = j - r > 0 ? j - r : 0;
      const int64_t j1 = j + r < W - 1 ? j + r : W - 1;
      real m = img[i * W + j];
      for (int64_t a = i0; a <= i1; a++)
        for (int64_t b = j0; b <= j1; b++)
          if (img[a * W + b] > m) m = img[a * W + b];
      out[i * W + j] = m;
    }
  }
}
