#include <stdint.h>

void HPCAB_KERNEL(conv_3d)(real *restrict out, const real *restrict vol, const real *restrict w,
                           const int64_t N, const int64_t R, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t K = 2 * R + 1;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++)
      for (int64_t l = 0; l < N; l++) {
        real acc = (real)0.0;
        for (int64_t a = 0; a < K; a++) {
          const int64_t ii = i + a - R;
          if (ii < 0 || ii >= N) continue;
          for (int64_t b = 0; b < K; b++) {
            const int64_t jj = j + b - R;
            if (jj < 0 || jj >= N) continue;
            for (int64_t c = 0; c < K; c++) {
              const int64_t ll = l + c - R;
              if (ll < 0 || ll >= N) continue;
              acc += w[(a * K + b) * K + c] * vol[(ii * N + jj) * N + ll];
            }
          }
        }
        out[(i * N + j) * N + l] = acc;
      }
}
