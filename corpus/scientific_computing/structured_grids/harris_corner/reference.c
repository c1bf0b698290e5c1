#include <stdint.h>
#include <stdlib.h>

/* Rows of the gradient products are kept in a ring of three (one row above, the row, one below),
   so the sequential baseline streams the image once. */
void HPCAB_KERNEL(harris_corner)(real *restrict R, const real *restrict img, const int64_t H,
                                 const int64_t W, const real k, uint8_t *restrict workspace,
                                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t p = 0; p < H * W; p++) R[p] = 0;
  if (H < 5 || W < 5) return;
  real *ring = malloc(sizeof(real) * 9 * (size_t)W);
  for (int64_t g = 1; g < H - 1; g++) {
    /* products of the gradients at image row g, columns 1..W-2 */
    real *xx = ring + (g % 3) * 3 * W, *yy = xx + W, *xy = yy + W;
    const real *u = img + (g - 1) * W, *m = img + g * W, *d = img + (g + 1) * W;
    for (int64_t j = 1; j < W - 1; j++) {
      const real gx =
          ((u[j + 1] - u[j - 1]) + (real)2 * (m[j + 1] - m[j - 1]) + (d[j + 1] - d[j - 1])) *
          (real)0.125;
      const real gy =
          ((d[j - 1] - u[j - 1]) + (real)2 * (d[j] - u[j]) + (d[j + 1] - u[j + 1])) * (real)0.125;
      xx[j] = gx * gx;
      yy[j] = gy * gy;
      xy[j] = gx * gy;
    }
    if (g < 3) continue;
    const int64_t i = g - 1; /* output row, its gradient rows i-1, i, i+1 are in the ring */
    for (int64_t j = 2; j < W - 2; j++) {
      real s[3];
      for (int64_t q = 0; q < 3; q++) {
        real acc = 0;
        int first = 1;
        for (int64_t di = -1; di <= 1; di++) {
          const real *row = ring + ((i + di) % 3) * 3 * W + q * W;
          for (int64_t dj = -1; dj <= 1; dj++) {
            acc = first ? row[j + dj] : acc + row[j + dj];
            first = 0;
          }
        }
        s[q] = acc;
      }
      const real tr = s[0] + s[1];
      R[i * W + j] = (s[0] * s[1] - s[2] * s[2]) - k * (tr * tr);
    }
  }
  free(ring);
}
