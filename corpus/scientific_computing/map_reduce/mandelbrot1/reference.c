#include <stdint.h>

void HPCAB_KERNEL(mandelbrot1)(const real *restrict c_im, const real *restrict c_re,
                               int64_t *restrict count, real *restrict z_im, real *restrict z_re,
                               const real horizon, const int64_t maxiter, const int64_t xn,
                               const int64_t yn, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real h2 = horizon * horizon;
  for (int64_t p = 0; p < xn * yn; p++) {
    real zr = (real)0.0, zi = (real)0.0;
    int64_t c = 0;
    for (int64_t n = 0; n < maxiter; n++) {
      if (!(zr * zr + zi * zi < h2)) break;
      c = n;
      const real nr = zr * zr - zi * zi + c_re[p];
      const real ni = (real)2.0 * zr * zi + c_im[p];
      zr = nr;
      zi = ni;
    }
    count[p] = c == maxiter - 1 ? 0 : c;
    z_re[p] = zr;
    z_im[p] = zi;
  }
}
