#include <stdint.h>
#include <stdlib.h>

void HPCAB_KERNEL(kleinman_bylander_nonlocal)(const real *restrict beta, const real *restrict dij,
                                              real *restrict hpsi, const real *restrict psi,
                                              const int64_t ngrid, const int64_t nproj,
                                              const int64_t nstate, uint8_t *restrict workspace,
                                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* O = beta^T psi and T = dij O: the reference's own scratch (nproj x nstate each) */
  real *restrict O = calloc((size_t)(nproj * nstate) + 1, sizeof(real));
  real *restrict T = calloc((size_t)(nproj * nstate) + 1, sizeof(real));
  if (O == NULL || T == NULL) abort();
  for (int64_t r = 0; r < ngrid; r++)
    for (int64_t q = 0; q < nproj; q++) {
      const real b = beta[r * nproj + q];
      for (int64_t j = 0; j < nstate; j++) O[q * nstate + j] += b * psi[r * nstate + j];
    }
  for (int64_t p = 0; p < nproj; p++)
    for (int64_t q = 0; q < nproj; q++) {
      const real d = dij[p * nproj + q];
      for (int64_t j = 0; j < nstate; j++) T[p * nstate + j] += d * O[q * nstate + j];
    }
  for (int64_t g = 0; g < ngrid; g++) {
    real *h = hpsi + g * nstate;
    for (int64_t j = 0; j < nstate; j++) h[j] = (real)0.0;
    for (int64_t p = 0; p < nproj; p++) {
      const real b = beta[g * nproj + p];
      for (int64_t j = 0; j < nstate; j++) h[j] += b * T[p * nstate + j];
    }
  }
  free(O);
  free(T);
}
