#include <math.h>
#include <stdint.h>

/* Direct DFT: y[k] = sum_n x[n] * exp(-2 pi i (k n mod N) / N). */
void HPCAB_KERNEL(fft_1d)(const real *restrict x_im, const real *restrict x_re, real *restrict y_im,
                          real *restrict y_re, const int64_t N, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real w = -(real)6.283185307179586476925286766559 / (real)N;
  for (int64_t k = 0; k < N; k++) {
    real sr = (real)0.0, si = (real)0.0;
    for (int64_t n = 0; n < N; n++) {
      const real ang = w * (real)((k * n) % N);
      const real c = cos(ang), s = sin(ang);
      sr += x_re[n] * c - x_im[n] * s;
      si += x_re[n] * s + x_im[n] * c;
    }
    y_re[k] = sr;
    y_im[k] = si;
  }
}
