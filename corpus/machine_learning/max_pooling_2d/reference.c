#include <stdint.h>

void max_pooling_2d_fp64(double *restrict out, const double *restrict x, const int64_t C,
                     const int64_t H, const int64_t K, const int64_t N, const int64_t STRIDE,
                     const int64_t W, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t OH = (H - K) / STRIDE + 1, OW = (W - K) / STRIDE + 1;
  for (int64_t p = 0; p < N * C; p++) {
    const double *restrict xp = x + p * H * W;
    double *restrict op = out + p * OH * OW;
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        const double *restrict w0 = xp + oh * STRIDE * W + ow * STRIDE;
        double m = w0[0];
        for (int64_t kh = 0; kh < K; kh++)
          for (int64_t kw = 0; kw < K; kw++) m = w0[kh * W + kw] > m ? w0[kh * W + kw] : m;
        op[oh * OW + ow] = m;
      }
  }
}

void max_pooling_2d_fp32(float *restrict out, const float *restrict x, const int64_t C, const int64_t H,
                     const int64_t K, const int64_t N, const int64_t STRIDE, const int64_t W,
                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t OH = (H - K) / STRIDE + 1, OW = (W - K) / STRIDE + 1;
  for (int64_t p = 0; p < N * C; p++) {
    const float *restrict xp = x + p * H * W;
    float *restrict op = out + p * OH * OW;
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        const float *restrict w0 = xp + oh * STRIDE * W + ow * STRIDE;
        float m = w0[0];
        for (int64_t kh = 0; kh < K; kh++)
          for (int64_t kw = 0; kw < K; kw++) m = w0[kh * W + kw] > m ? w0[kh * W + kw] : m;
        op[oh * OW + ow] = m;
      }
  }
}
