#include <stdint.h>

void HPCAB_KERNEL(vector_stencil_4d)(const real *restrict in_grid, real *restrict out_grid,
                                     const real *restrict w_dist, const int64_t B, const int64_t N,
                                     const int64_t R, uint8_t *restrict workspace,
                                     const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t sI = N * N * B, sJ = N * B, sK = B;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < N; j++)
      for (int64_t k = 0; k < N; k++)
        for (int64_t b = 0; b < B; b++) {
          const int64_t p = i * sI + j * sJ + k * sK + b;
          real acc = w_dist[R] * in_grid[p];
          for (int64_t r = 1; r <= R; r++) {
            const int64_t di0 = (i - r < 0 ? 0 : i - r) - i,
                          di1 = (i + r > N - 1 ? N - 1 : i + r) - i;
            const int64_t dj0 = (j - r < 0 ? 0 : j - r) - j,
                          dj1 = (j + r > N - 1 ? N - 1 : j + r) - j;
            const int64_t dk0 = (k - r < 0 ? 0 : k - r) - k,
                          dk1 = (k + r > N - 1 ? N - 1 : k + r) - k;
            const real ring = in_grid[p + di0 * sI] + in_grid[p + di1 * sI] +
                              in_grid[p + dj0 * sJ] + in_grid[p + dj1 * sJ] +
                              in_grid[p + dk0 * sK] + in_grid[p + dk1 * sK];
            acc = acc + w_dist[r - 1] * ring;
          }
          out_grid[p] = acc;
        }
}
