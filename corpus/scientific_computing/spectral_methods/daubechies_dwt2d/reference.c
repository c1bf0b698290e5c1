#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* One 1-D periodic db2 analysis of n values read with stride `stride`, written back the same way
   (lows first, then highs), through the buffer tmp. */
static void daubechies_dwt2d_line(real *restrict x, const int64_t n, const int64_t stride,
                                  real *restrict tmp, const real *restrict h,
                                  const real *restrict g) {
  const int64_t half = n / 2;
  for (int64_t k = 0; k < half; k++) {
    const int64_t kn = (k + 1) % half;
    const real e = x[(2 * k) * stride], o = x[(2 * k + 1) * stride];
    const real e1 = x[(2 * kn) * stride], o1 = x[(2 * kn + 1) * stride];
    tmp[k] = h[0] * e + h[1] * o + h[2] * e1 + h[3] * o1;
    tmp[half + k] = g[0] * e + g[1] * o + g[2] * e1 + g[3] * o1;
  }
  for (int64_t k = 0; k < n; k++) x[k * stride] = tmp[k];
}
void HPCAB_KERNEL(daubechies_dwt2d)(const real *restrict image, real *restrict out, const int64_t N,
                                    const int64_t nlevels, uint8_t *restrict workspace,
                                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double r = sqrt(3.0), d = 4.0 * sqrt(2.0);
  const real h[4] = {(real)((1.0 + r) / d), (real)((3.0 + r) / d),
                     (real)((3.0 - r) / d), (real)((1.0 - r) / d)};
  const real g[4] = {h[3], -h[2], h[1], -h[0]};
  for (int64_t p = 0; p < N * N; p++) out[p] = image[p];
  real *tmp = malloc(sizeof(real) * (size_t)N);
  for (int64_t level = 0; level < nlevels; level++) {
    const int64_t s = N >> level;
    for (int64_t i = 0; i < s; i++) daubechies_dwt2d_line(out + i * N, s, 1, tmp, h, g);
    for (int64_t j = 0; j < s; j++) daubechies_dwt2d_line(out + j, s, N, tmp, h, g);
  }
  free(tmp);
}
