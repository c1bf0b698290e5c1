#include <stdint.h>

void mandelbrot1_fp64(const double *restrict c_im, const double *restrict c_re,
                      int64_t *restrict count, double *restrict z_im, double *restrict z_re,
                      const double horizon, const int64_t maxiter, const int64_t xn,
                      const int64_t yn, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double h2 = horizon * horizon;
  for (int64_t p = 0; p < xn * yn; p++) {
    double zr = 0.0, zi = 0.0;
    int64_t c = 0;
    for (int64_t n = 0; n < maxiter; n++) {
      if (!(zr * zr + zi * zi < h2)) break;
      c = n;
      const double nr = zr * zr - zi * zi + c_re[p];
      const double ni = 2.0 * zr * zi + c_im[p];
      zr = nr;
      zi = ni;
    }
    count[p] = c == maxiter - 1 ? 0 : c;
    z_re[p] = zr;
    z_im[p] = zi;
  }
}

void mandelbrot1_fp32(const float *restrict c_im, const float *restrict c_re,
                      int64_t *restrict count, float *restrict z_im, float *restrict z_re,
                      const float horizon, const int64_t maxiter, const int64_t xn,
                      const int64_t yn, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float h2 = horizon * horizon;
  for (int64_t p = 0; p < xn * yn; p++) {
    float zr = 0.0f, zi = 0.0f;
    int64_t c = 0;
    for (int64_t n = 0; n < maxiter; n++) {
      if (!(zr * zr + zi * zi < h2)) break;
      c = n;
      const float nr = zr * zr - zi * zi + c_re[p];
      const float ni = 2.0f * zr * zi + c_im[p];
      zr = nr;
      zi = ni;
    }
    count[p] = c == maxiter - 1 ? 0 : c;
    z_re[p] = zr;
    z_im[p] = zi;
  }
}
