#include <math.h>
#include <stdint.h>

/* One radix-R Stockham stage (decimation in frequency) of a transform of length n = R*m at
   stride s: for each p < m and q < s, the R inputs a_t = src[q + s*(p + t*m)] give
   dst[q + s*(R*p + u)] = (sum_t a_t w_R^(t*u)) * w_n^(p*u), with w_n = exp(-2 pi i / n). */
static void stage(const real *restrict sr, const real *restrict si, real *restrict dr,
                  real *restrict di, const int64_t n, const int64_t s, const int64_t R) {
  const real two_pi = (real)6.283185307179586476925286766559;
  const int64_t m = n / R;
  for (int64_t p = 0; p < m; p++) {
    for (int64_t u = 0; u < R; u++) {
      const real a = -two_pi * (real)((p * u) % n) / (real)n;
      const real wr = cos(a), wi = sin(a);
      for (int64_t q = 0; q < s; q++) {
        real accr = (real)0.0, acci = (real)0.0;
        for (int64_t t = 0; t < R; t++) {
          const real b = -two_pi * (real)((t * u) % R) / (real)R;
          const real cr = cos(b), ci = sin(b);
          const int64_t src = q + s * (p + t * m);
          accr += sr[src] * cr - si[src] * ci;
          acci += sr[src] * ci + si[src] * cr;
        }
        const int64_t dst = q + s * (R * p + u);
        dr[dst] = accr * wr - acci * wi;
        di[dst] = accr * wi + acci * wr;
      }
    }
  }
}

void HPCAB_KERNEL(stockham_fft)(real *restrict x_im, real *restrict x_re, real *restrict y_im,
                                real *restrict y_re, const int64_t K, const int64_t N,
                                const int64_t R, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t n = N, s = 1;
  for (int64_t l = 0; l < K; l++) {
    if (l % 2 == 0)
      stage(x_re, x_im, y_re, y_im, n, s, R);
    else
      stage(y_re, y_im, x_re, x_im, n, s, R);
    n /= R;
    s *= R;
  }
  /* after K stages the transform is in y if K is odd, in x if K is even; copy it to the other */
  for (int64_t i = 0; i < N; i++) {
    if (K % 2 == 1) {
      x_re[i] = y_re[i];
      x_im[i] = y_im[i];
    } else {
      y_re[i] = x_re[i];
      y_im[i] = x_im[i];
    }
  }
}
