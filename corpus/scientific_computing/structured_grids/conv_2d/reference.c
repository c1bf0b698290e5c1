#include <stdint.h>

void HPCAB_KERNEL(conv_2d)(const real *restrict img, real *restrict out, const real *restrict w,
                           const int64_t N, const int64_t R, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t K = 2 * R + 1;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++) {
      real acc = (real)0.0;
      for (int64_t a = 0; a < K; a++) {
        const int64_t ii = i + a - R;
        if (ii < 0 || ii >= N) continue;
        for (int64_t b = 0; b < K; b++) {
          const int64_t jj = j + b - R;
          if (jj < 0 || jj >= N) continue;
          acc += w[a * K + b] * img[ii * N + jj];
        }
      }
      out[i * N + j] = acc;
    }
}
