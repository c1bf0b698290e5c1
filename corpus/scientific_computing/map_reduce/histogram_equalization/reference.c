#include <stdint.h>

void HPCAB_KERNEL(histogram_equalization)(const uint8_t *restrict img, uint8_t *restrict out,
                                          const int64_t H, const int64_t W,
                                          uint8_t *restrict workspace,
                                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n = H * W;
  int64_t cdf[256] = {0};
  for (int64_t p = 0; p < n; p++) cdf[img[p]]++;
  int64_t vmin = 0;
  while (cdf[vmin] == 0) vmin++;
  for (int v = 1; v < 256; v++) cdf[v] += cdf[v - 1];
  const int64_t cdf_min = cdf[vmin];
  const int64_t den = n - cdf_min;
  if (den == 0) {
    for (int64_t p = 0; p < n; p++) out[p] = img[p];
    return;
  }
  uint8_t lut[256];
  for (int v = 0; v < 256; v++) {
    int64_t l = ((cdf[v] - cdf_min) * 255 + den / 2) / den;
    lut[v] = (uint8_t)(l < 0 ? 0 : (l > 255 ? 255 : l));
  }
  for (int64_t p = 0; p < n; p++) out[p] = lut[img[p]];
}
