#include <stdint.h>

void HPCAB_KERNEL(mandelbrot2)(const real *restrict c_im, const real *restrict c_re,
                               int64_t *restrict count, real *restrict z_im, real *restrict z_re,
                               const int64_t XN, const int64_t YN, const real horizon,
                               const int64_t maxiter, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real h2 = horizon * horizon;
  for (int64_t p = 0; p < XN * YN; p++) {
    real zr = (real)0.0, zi = (real)0.0;
    int64_t c = 0;
    real er = (real)0.0, ei = (real)0.0;
    for (int64_t i = 0; i < maxiter; i++) {
      const real nr = zr * zr - zi * zi + c_re[p];
      const real ni = (real)2.0 * zr * zi + c_im[p];
      zr = nr;
      zi = ni;
      if (zr * zr + zi * zi > h2) {
        c = i + 1;
        er = zr;
        ei = zi;
        break;
      }
    }
    count[p] = c;
    z_re[p] = er;
    z_im[p] = ei;
  }
}
