#include <math.h>
#include <stdint.h>

/* Direct DFT: y[k] = sum_n x[n] * exp(-2 pi i (k n mod N) / N). */
void fft_1d_fp64(const double *restrict x_im, const double *restrict x_re, double *restrict y_im,
                 double *restrict y_re, const int64_t N, uint8_t *restrict workspace,
                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double w = -6.283185307179586476925286766559 / (double)N;
  for (int64_t k = 0; k < N; k++) {
    double sr = 0.0, si = 0.0;
    for (int64_t n = 0; n < N; n++) {
      const double ang = w * (double)((k * n) % N);
      const double c = cos(ang), s = sin(ang);
      sr += x_re[n] * c - x_im[n] * s;
      si += x_re[n] * s + x_im[n] * c;
    }
    y_re[k] = sr;
    y_im[k] = si;
  }
}

void fft_1d_fp32(const float *restrict x_im, const float *restrict x_re, float *restrict y_im,
                 float *restrict y_re, const int64_t N, uint8_t *restrict workspace,
                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float w = -6.283185307179586476925286766559f / (float)N;
  for (int64_t k = 0; k < N; k++) {
    float sr = 0.0f, si = 0.0f;
    for (int64_t n = 0; n < N; n++) {
      const float ang = w * (float)((k * n) % N);
      const float c = cosf(ang), s = sinf(ang);
      sr += x_re[n] * c - x_im[n] * s;
      si += x_re[n] * s + x_im[n] * c;
    }
    y_re[k] = sr;
    y_im[k] = si;
  }
}
