#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 8th-order central second-derivative weights: centre, then offsets 1..4 */
#define CF_C0 (-(real)205.0 / (real)72.0)
static const real cf_w64[4] = {(real)8.0 / (real)5.0, -(real)1.0 / (real)5.0, (real)8.0 / (real)315.0, -(real)1.0 / (real)560.0};
static const float cf_w32[4] = {(float)((real)8.0 / (real)5.0), (float)(-(real)1.0 / (real)5.0), (float)((real)8.0 / (real)315.0),
                                (float)(-(real)1.0 / (real)560.0)};

/* Ynew = (H Y - c Y) * s1 - s2 * Xp, H = -half_inv_h2 * stencil + vloc (periodic, k states per point) */
static void cf_step(const real *restrict Y, const real *restrict Xp, real *restrict Ynew,
                         const real *restrict vloc, const int64_t N, const int64_t k, const real hih2,
                         const real c, const real s1, const real s2) {
  for (int64_t x = 0; x < N; x++)
    for (int64_t y = 0; y < N; y++)
      for (int64_t z = 0; z < N; z++) {
        const int64_t p = (x * N + y) * N + z;
        /* the 24 periodic neighbours: x - m, x + m, then y, then z, for m = 1..4 */
        const real *nb[24];
        for (int64_t m = 1; m <= 4; m++) {
          nb[2 * (m - 1)] = Y + ((((x - m + N) % N) * N + y) * N + z) * k;
          nb[2 * (m - 1) + 1] = Y + ((((x + m) % N) * N + y) * N + z) * k;
          nb[8 + 2 * (m - 1)] = Y + ((x * N + (y - m + N) % N) * N + z) * k;
          nb[8 + 2 * (m - 1) + 1] = Y + ((x * N + (y + m) % N) * N + z) * k;
          nb[16 + 2 * (m - 1)] = Y + ((x * N + y) * N + (z - m + N) % N) * k;
          nb[16 + 2 * (m - 1) + 1] = Y + ((x * N + y) * N + (z + m) % N) * k;
        }
        const real vp = vloc[p];
        for (int64_t s = 0; s < k; s++) {
          const real yv = Y[p * k + s];
          real acc = ((real)3.0 * CF_C0) * yv;
          for (int64_t q = 0; q < 24; q += 2) acc = acc + cf_w64[(q / 2) % 4] * (nb[q][s] + nb[q + 1][s]);
          const real hy = -hih2 * acc + vp * yv;
          real v = (hy - c * yv) * s1;
          if (Xp != NULL) v = v - s2 * Xp[p * k + s];
          Ynew[p * k + s] = v;
        }
      }
}

void HPCAB_KERNEL(chebyshev_filter_subspace)(const real *restrict X, real *restrict out,
                                             const real *restrict vloc, const int64_t N, const real a,
                                             const real a0, const real b, const real half_inv_h2,
                                             const int64_t k, const int64_t m, uint8_t *restrict workspace,
                                             const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n = N * N * N * k;
  const real e = (real)0.5 * (b - a);
  const real c = (real)0.5 * (b + a);
  real sigma = e / (a0 - c);
  const real sigma1 = sigma;
  /* three rotating buffers: previous iterate, current, next (the reference's own scratch) */
  real *restrict buf1 = malloc((size_t)n * sizeof(real));
  real *restrict buf2 = malloc((size_t)n * sizeof(real));
  real *restrict buf3 = malloc((size_t)n * sizeof(real));
  if (buf1 == NULL || buf2 == NULL || buf3 == NULL) abort();
  const real *Xp = X;
  real *Y = buf1, *Ynew = buf2, *spare = buf3;
  cf_step(X, NULL, Y, vloc, N, k, half_inv_h2, c, sigma1 / e, (real)0.0);
  for (int64_t it = 2; it <= m; it++) {
    const real sigma_new = (real)1.0 / ((real)2.0 / sigma1 - sigma);
    cf_step(Y, Xp, Ynew, vloc, N, k, half_inv_h2, c, (real)2.0 * sigma_new / e, sigma * sigma_new);
    /* rotate: Xp <- Y, Y <- Ynew; the old Xp buffer (if ours) becomes the next target */
    real *old = (Xp == X) ? spare : (real *)Xp;
    Xp = Y;
    Y = Ynew;
    Ynew = old;
    sigma = sigma_new;
  }
  memcpy(out, Y, (size_t)n * sizeof(real));
  free(buf1);
  free(buf2);
  free(buf3);
}
