#include <stdint.h>

void HPCAB_KERNEL(max_pooling_2d)(real *restrict out, const real *restrict x, const int64_t C,
                                  const int64_t H, const int64_t K, const int64_t N, const int64_t STRIDE,
                                  const int64_t W, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t OH = (H - K) / STRIDE + 1, OW = (W - K) / STRIDE + 1;
  for (int64_t p = 0; p < N * C; p++) {
    const real *restrict xp = x + p * H * W;
    real *restrict op = out + p * OH * OW;
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        const real *restrict w0 = xp + oh * STRIDE * W + ow * STRIDE;
        real m = w0[0];
        for (int64_t kh = 0; kh < K; kh++)
          for (int64_t kw = 0; kw < K; kw++) m = w0[kh * W + kw] > m ? w0[kh * W + kw] : m;
        op[oh * OW + ow] = m;
      }
  }
}
