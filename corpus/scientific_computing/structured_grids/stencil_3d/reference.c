#include <stdint.h>

void HPCAB_KERNEL(stencil_3d)(const real *restrict c, const real *restrict inp, real *restrict out,
                              const int64_t N, const int64_t R, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t S = N * N;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++)
      for (int64_t k = 0; k < N; k++) {
        const int64_t p = i * S + j * N + k;
        if (i < R || i >= N - R || j < R || j >= N - R || k < R || k >= N - R) {
          out[p] = inp[p];
          continue;
        }
        real acc = c[0] * inp[p];
        for (int64_t r = 1; r <= R; r++)
          acc = acc + c[r] * (inp[p - r * S] + inp[p + r * S] + inp[p - r * N] + inp[p + r * N] +
                              inp[p - r] + inp[p + r]);
        out[p] = acc;
      }
}
