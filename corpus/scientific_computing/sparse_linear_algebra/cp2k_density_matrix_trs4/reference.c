#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every matrix is block-tridiagonal with periodic wrap: blocks[(r*3 + s)*bs*bs + i*bs + j] is
   entry (i, j) of the block at block row r, block column (r + s - 1) mod n. */

#define TRS4_GAP (real)0.35

/* C = A B on the pattern (product blocks outside it dropped); blocks of norm < eps zeroed */
static void trs4_mult(const real *restrict A, const real *restrict B, real *restrict C,
                      const int64_t n, const int64_t bs, const real eps) {
  const int64_t b2 = bs * bs;
  memset(C, 0, (size_t)(n * 3 * b2) * sizeof(real));
  for (int64_t r = 0; r < n; r++)
    for (int64_t so = 0; so < 3; so++)
      for (int64_t s1 = 0; s1 < 3; s1++) {
        const int64_t s2 = so - s1 + 1; /* offsets add: (s1 - 1) + (s2 - 1) = so - 1 */
        if (s2 < 0 || s2 > 2) continue;
        const int64_t k = (r + s1 - 1 + n) % n;
        const real *a = A + (r * 3 + s1) * b2;
        const real *b = B + (k * 3 + s2) * b2;
        real *c = C + (r * 3 + so) * b2;
        for (int64_t i = 0; i < bs; i++)
          for (int64_t j = 0; j < bs; j++) {
            real v = (real)0.0;
            for (int64_t l = 0; l < bs; l++) v += a[i * bs + l] * b[l * bs + j];
            c[i * bs + j] += v;
          }
      }
  for (int64_t q = 0; q < n * 3; q++) {
    real nrm = (real)0.0;
    for (int64_t e = 0; e < b2; e++) nrm += C[q * b2 + e] * C[q * b2 + e];
    if (nrm < eps * eps)
      for (int64_t e = 0; e < b2; e++) C[q * b2 + e] = (real)0.0;
  }
}

void HPCAB_KERNEL(cp2k_density_matrix_trs4)(
    const real *restrict h_off, const real *restrict h_on, const real *restrict levels,
    real *restrict p_blocks, const real *restrict s_off, const real *restrict s_on,
    const int64_t block_size, const real eps_max, const real eps_min, const int64_t n_block_rows,
    const int64_t n_iter, const int64_t nelectron, const real spin_scale, const real threshold,
    uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n = n_block_rows, bs = block_size, b2 = bs * bs, nt = n * 3 * b2;
  /* the reference's own scratch: H, S^-1/2, X, X^2, G, the polynomial, a product buffer */
  real *restrict ks = calloc((size_t)nt, sizeof(real));
  real *restrict sinv = calloc((size_t)nt, sizeof(real));
  real *restrict X = calloc((size_t)nt, sizeof(real));
  real *restrict X2 = calloc((size_t)nt, sizeof(real));
  real *restrict G = calloc((size_t)nt, sizeof(real));
  real *restrict poly = calloc((size_t)nt, sizeof(real));
  real *restrict tmp = calloc((size_t)nt, sizeof(real));
  if (!ks || !sinv || !X || !X2 || !G || !poly || !tmp) abort();
  for (int64_t r = 0; r < n; r++) {
    const int64_t rp = (r + 1) % n;
    for (int64_t i = 0; i < bs; i++)
      for (int64_t j = 0; j < bs; j++) {
        const real *ho = h_on + r * b2, *so = s_on + r * b2;
        real hv = (real)0.5 * (ho[i * bs + j] + ho[j * bs + i]);
        real sv = (real)0.5 * (so[i * bs + j] + so[j * bs + i]);
        if (i == j) {
          const int64_t g = r * bs + i;
          hv += levels[g] + (g >= nelectron ? TRS4_GAP : (real)0.0);
          sv += (real)1.0;
        }
        ks[(r * 3 + 1) * b2 + i * bs + j] = hv;
        sinv[(r * 3 + 1) * b2 + i * bs + j] = sv;
        /* coupling block r -> r+1 and its transpose at r+1 -> r */
        ks[(r * 3 + 2) * b2 + i * bs + j] = h_off[r * b2 + i * bs + j];
        ks[(rp * 3 + 0) * b2 + j * bs + i] = h_off[r * b2 + i * bs + j];
        sinv[(r * 3 + 2) * b2 + i * bs + j] = s_off[r * b2 + i * bs + j];
        sinv[(rp * 3 + 0) * b2 + j * bs + i] = s_off[r * b2 + i * bs + j];
      }
  }
  /* X0 = (eps_max I - S^-1/2 H S^-1/2) / (eps_max - eps_min) */
  trs4_mult(sinv, ks, tmp, n, bs, threshold);
  trs4_mult(tmp, sinv, X, n, bs, threshold);
  const real scale = -(real)1.0 / (eps_max - eps_min);
  for (int64_t e = 0; e < nt; e++) X[e] *= scale;
  for (int64_t r = 0; r < n; r++)
    for (int64_t i = 0; i < bs; i++) X[(r * 3 + 1) * b2 + i * bs + i] -= scale * eps_max;
  for (int64_t it = 0; it < n_iter; it++) {
    trs4_mult(X, X, X2, n, bs, threshold);
    real frob_id_sq = (real)0.0, frob_x_sq = (real)0.0, trace_fx = (real)0.0;
    for (int64_t e = 0; e < nt; e++) {
      G[e] = X2[e] - (real)2.0 * X[e];
      poly[e] = (real)4.0 * X[e] - (real)3.0 * X2[e];
      const real res = X2[e] - X[e];
      frob_id_sq += res * res;
      frob_x_sq += X[e] * X[e];
      trace_fx += X2[e] * poly[e];
    }
    for (int64_t r = 0; r < n; r++)
      for (int64_t i = 0; i < bs; i++) G[(r * 3 + 1) * b2 + i * bs + i] += (real)1.0;
    const real delta_n = (real)nelectron - trace_fx;
    real gamma;
    if (frob_id_sq < threshold * frob_x_sq && fabs(delta_n) < (real)0.5) {
      gamma = (real)3.0;
    } else if (fabs(delta_n) < (real)1.0e-14) {
      gamma = (real)0.0;
    } else {
      real den = frob_id_sq;
      const real floor_ = fabs(delta_n) / (real)100.0;
      if (fabs(den) < floor_) den = den >= (real)0.0 ? floor_ : -floor_;
      gamma = delta_n / den;
    }
    int64_t branch;
    if (gamma > (real)6.0) {
      branch = 1;
      for (int64_t q = 0; q < n * 3; q++) {
        real nrm = (real)0.0;
        for (int64_t e = q * b2; e < (q + 1) * b2; e++) {
          X[e] = (real)2.0 * X[e] - X2[e];
          nrm += X[e] * X[e];
        }
        if (nrm < threshold * threshold)
          for (int64_t e = q * b2; e < (q + 1) * b2; e++) X[e] = (real)0.0;
      }
    } else if (gamma < (real)0.0) {
      branch = 2;
      memcpy(X, X2, (size_t)nt * sizeof(real));
    } else {
      branch = 3;
      for (int64_t e = 0; e < nt; e++) poly[e] += gamma * G[e];
      trs4_mult(X2, poly, X, n, bs, threshold);
    }
    if (frob_id_sq < threshold * frob_x_sq && branch == 3 && fabs(delta_n) < (real)0.5) break;
  }
  /* P = spin_scale * S^-1/2 (X S^-1/2) */
  trs4_mult(X, sinv, tmp, n, bs, threshold);
  trs4_mult(sinv, tmp, p_blocks, n, bs, threshold);
  for (int64_t e = 0; e < nt; e++) p_blocks[e] *= spin_scale;
  free(ks);
  free(sinv);
  free(X);
  free(X2);
  free(G);
  free(poly);
  free(tmp);
}
