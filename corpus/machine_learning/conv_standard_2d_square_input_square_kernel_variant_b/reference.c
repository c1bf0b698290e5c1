#include <stdint.h>

void HPCAB_KERNEL(conv_standard_2d_square_input_square_kernel_variant_b)(real *restrict out, const real *restrict weight,
                                                                         const real *restrict x, const int64_t C, const int64_t H, const int64_t K,
                                                                         const int64_t N, const int64_t O, const int64_t W, uint8_t *restrict workspace,
                                                                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t OH = H - K + 1, OW = W - K + 1;
  for (int64_t n = 0; n < N; n++)
    for (int64_t o = 0; o < O; o++) {
      real *restrict op = out + (n * O + o) * OH * OW;
      for (int64_t i = 0; i < OH * OW; i++) op[i] = 0;
      for (int64_t c = 0; c < C; c++) {
        const real *restrict xp = x + (n * C + c) * H * W;
        for (int64_t p = 0; p < K; p++)
          for (int64_t q = 0; q < K; q++) {
            const real wv = weight[((o * C + c) * K + p) * K + q];
            for (int64_t i = 0; i < OH; i++)
              for (int64_t j = 0; j < OW; j++) op[i * OW + j] += wv * xp[(i + p) * W + j + q];
          }
      }
    }
}
