#include <stdint.h>

void mandelbrot2_fp64(const double *restrict c_im, const double *restrict c_re,
                      int64_t *restrict count, double *restrict z_im, double *restrict z_re,
                      const int64_t XN, const int64_t YN, const double horizon,
                      const int64_t maxiter, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double h2 = horizon * horizon;
  for (int64_t p = 0; p < XN * YN; p++) {
    double zr = 0.0, zi = 0.0;
    int64_t c = 0;
    double er = 0.0, ei = 0.0;
    for (int64_t i = 0; i < maxiter; i++) {
      const double nr = zr * zr - zi * zi + c_re[p];
      const double ni = 2.0 * zr * zi + c_im[p];
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

void mandelbrot2_fp32(const float *restrict c_im, const float *restrict c_re,
                      int64_t *restrict count, float *restrict z_im, float *restrict z_re,
                      const int64_t XN, const int64_t YN, const float horizon,
                      const int64_t maxiter, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float h2 = horizon * horizon;
  for (int64_t p = 0; p < XN * YN; p++) {
    float zr = 0.0f, zi = 0.0f;
    int64_t c = 0;
    float er = 0.0f, ei = 0.0f;
    for (int64_t i = 0; i < maxiter; i++) {
      const float nr = zr * zr - zi * zi + c_re[p];
      const float ni = 2.0f * zr * zi + c_im[p];
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
