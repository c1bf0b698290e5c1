#include <math.h>
#include <stdint.h>

/* One radix-R Stockham stage (decimation in frequency) of a transform of length n = R*m at
   stride s: for each p < m and q < s, the R inputs a_t = src[q + s*(p + t*m)] give
   dst[q + s*(R*p + u)] = (sum_t a_t w_R^(t*u)) * w_n^(p*u), with w_n = exp(-2 pi i / n). */
static void stage_fp64(const double *restrict sr, const double *restrict si, double *restrict dr,
                       double *restrict di, const int64_t n, const int64_t s, const int64_t R) {
  const double two_pi = 6.283185307179586476925286766559;
  const int64_t m = n / R;
  for (int64_t p = 0; p < m; p++) {
    for (int64_t u = 0; u < R; u++) {
      const double a = -two_pi * (double)((p * u) % n) / (double)n;
      const double wr = cos(a), wi = sin(a);
      for (int64_t q = 0; q < s; q++) {
        double accr = 0.0, acci = 0.0;
        for (int64_t t = 0; t < R; t++) {
          const double b = -two_pi * (double)((t * u) % R) / (double)R;
          const double cr = cos(b), ci = sin(b);
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

void stockham_fft_fp64(double *restrict x_im, double *restrict x_re, double *restrict y_im,
                       double *restrict y_re, const int64_t K, const int64_t N, const int64_t R,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t n = N, s = 1;
  for (int64_t l = 0; l < K; l++) {
    if (l % 2 == 0)
      stage_fp64(x_re, x_im, y_re, y_im, n, s, R);
    else
      stage_fp64(y_re, y_im, x_re, x_im, n, s, R);
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

static void stage_fp32(const float *restrict sr, const float *restrict si, float *restrict dr,
                       float *restrict di, const int64_t n, const int64_t s, const int64_t R) {
  const float two_pi = 6.283185307179586476925286766559f;
  const int64_t m = n / R;
  for (int64_t p = 0; p < m; p++) {
    for (int64_t u = 0; u < R; u++) {
      const float a = -two_pi * (float)((p * u) % n) / (float)n;
      const float wr = cosf(a), wi = sinf(a);
      for (int64_t q = 0; q < s; q++) {
        float accr = 0.0f, acci = 0.0f;
        for (int64_t t = 0; t < R; t++) {
          const float b = -two_pi * (float)((t * u) % R) / (float)R;
          const float cr = cosf(b), ci = sinf(b);
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

void stockham_fft_fp32(float *restrict x_im, float *restrict x_re, float *restrict y_im,
                       float *restrict y_re, const int64_t K, const int64_t N, const int64_t R,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t n = N, s = 1;
  for (int64_t l = 0; l < K; l++) {
    if (l % 2 == 0)
      stage_fp32(x_re, x_im, y_re, y_im, n, s, R);
    else
      stage_fp32(y_re, y_im, x_re, x_im, n, s, R);
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
