#include <stdint.h>

void HPCAB_KERNEL(laplacian_stencil_3d)(real *restrict out, const real *restrict psi,
                                        const int64_t N, const int64_t k,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t S = N * N;
  for (int64_t b = 0; b < k; b++) {
    const real *restrict f = psi + b * N * S;
    real *restrict g = out + b * N * S;
    for (int64_t x = 0; x < N; x++) {
      const int64_t xm = (x + N - 1) % N, xp = (x + 1) % N;
      for (int64_t y = 0; y < N; y++) {
        const int64_t ym = (y + N - 1) % N, yp = (y + 1) % N;
        for (int64_t z = 0; z < N; z++) {
          const int64_t zm = (z + N - 1) % N, zp = (z + 1) % N;
          g[x * S + y * N + z] = f[xm * S + y * N + z] + f[xp * S + y * N + z] +
                                 f[x * S + ym * N + z] + f[x * S + yp * N + z] +
                                 f[x * S + y * N + zm] + f[x * S + y * N + zp] -
                                 (real)6.0 * f[x * S + y * N + z];
        }
      }
    }
  }
}
