#include <stdint.h>
#include <stdlib.h>

void HPCAB_KERNEL(scattering_self_energies)(
    const real *restrict D_im, const real *restrict D_re, const real *restrict G_im,
    const real *restrict G_re, real *restrict Sigma_im, real *restrict Sigma_re,
    const real *restrict dH_im, const real *restrict dH_re, const int32_t *restrict neigh_idx,
    const int64_t N3D, const int64_t NA, const int64_t NB, const int64_t NE, const int64_t Nkz,
    const int64_t Norb, const int64_t Nqz, const int64_t Nw, uint8_t *restrict workspace,
    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t O2 = Norb * Norb;
  /* M[w,a,b,i] = sum_j dH[a,b,j] * (sum_q D[q,w,a,b,i,j]): the reference's own scratch */
  const int64_t nM = Nw * NA * NB * N3D * O2;
  real *restrict M_re = calloc((size_t)nM + 1, sizeof(real));
  real *restrict M_im = calloc((size_t)nM + 1, sizeof(real));
  real *restrict T_re = malloc((size_t)O2 * sizeof(real));
  real *restrict T_im = malloc((size_t)O2 * sizeof(real));
  if (M_re == NULL || M_im == NULL || T_re == NULL || T_im == NULL) abort();
  for (int64_t w = 0; w < Nw; w++)
    for (int64_t a = 0; a < NA; a++)
      for (int64_t b = 0; b < NB; b++)
        for (int64_t i = 0; i < N3D; i++) {
          real *mr = M_re + (((w * NA + a) * NB + b) * N3D + i) * O2;
          real *mi = M_im + (((w * NA + a) * NB + b) * N3D + i) * O2;
          for (int64_t j = 0; j < N3D; j++) {
            real dr = (real)0.0, di = (real)0.0;
            for (int64_t q = 0; q < Nqz; q++) {
              const int64_t x = ((((q * Nw + w) * NA + a) * NB + b) * N3D + i) * N3D + j;
              dr += D_re[x];
              di += D_im[x];
            }
            const real *hr = dH_re + ((a * NB + b) * N3D + j) * O2;
            const real *hi = dH_im + ((a * NB + b) * N3D + j) * O2;
            for (int64_t e = 0; e < O2; e++) {
              mr[e] += hr[e] * dr - hi[e] * di;
              mi[e] += hr[e] * di + hi[e] * dr;
            }
          }
        }
  for (int64_t k = 0; k < Nkz; k++)
    for (int64_t E = 0; E < NE; E++) {
      for (int64_t w = 0; w < Nw && w <= E; w++)
        for (int64_t a = 0; a < NA; a++) {
          real *sr = Sigma_re + ((k * NE + E) * NA + a) * O2;
          real *si = Sigma_im + ((k * NE + E) * NA + a) * O2;
          for (int64_t b = 0; b < NB; b++) {
            const int64_t n = neigh_idx[a * NB + b];
            const real *gr = G_re + ((k * NE + (E - w)) * NA + n) * O2;
            const real *gi = G_im + ((k * NE + (E - w)) * NA + n) * O2;
            for (int64_t i = 0; i < N3D; i++) {
              const real *hr = dH_re + ((a * NB + b) * N3D + i) * O2;
              const real *hi = dH_im + ((a * NB + b) * N3D + i) * O2;
              const real *mr = M_re + (((w * NA + a) * NB + b) * N3D + i) * O2;
              const real *mi = M_im + (((w * NA + a) * NB + b) * N3D + i) * O2;
              /* T = G[k,E-w,n] dH[a,b,i] */
              for (int64_t r = 0; r < Norb; r++) {
                for (int64_t c = 0; c < Norb; c++) {
                  T_re[r * Norb + c] = (real)0.0;
                  T_im[r * Norb + c] = (real)0.0;
                }
                for (int64_t l = 0; l < Norb; l++) {
                  const real ar = gr[r * Norb + l], ai = gi[r * Norb + l];
                  for (int64_t c = 0; c < Norb; c++) {
                    T_re[r * Norb + c] += ar * hr[l * Norb + c] - ai * hi[l * Norb + c];
                    T_im[r * Norb + c] += ar * hi[l * Norb + c] + ai * hr[l * Norb + c];
                  }
                }
              }
              /* Sigma[k,E,a] += T M[w,a,b,i] */
              for (int64_t r = 0; r < Norb; r++)
                for (int64_t l = 0; l < Norb; l++) {
                  const real ar = T_re[r * Norb + l], ai = T_im[r * Norb + l];
                  for (int64_t c = 0; c < Norb; c++) {
                    sr[r * Norb + c] += ar * mr[l * Norb + c] - ai * mi[l * Norb + c];
                    si[r * Norb + c] += ar * mi[l * Norb + c] + ai * mr[l * Norb + c];
                  }
                }
            }
          }
        }
    }
  free(M_re);
  free(M_im);
  free(T_re);
  free(T_im);
}
