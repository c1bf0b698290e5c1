#include <stdint.h>
#include <stdlib.h>

void kleinman_bylander_nonlocal_fp64(const double *restrict beta, const double *restrict dij,
                                     double *restrict hpsi, const double *restrict psi,
                                     const int64_t ngrid, const int64_t nproj, const int64_t nstate,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* O = beta^T psi and T = dij O: the reference's own scratch (nproj x nstate each) */
  double *restrict O = calloc((size_t)(nproj * nstate) + 1, sizeof(double));
  double *restrict T = calloc((size_t)(nproj * nstate) + 1, sizeof(double));
  if (O == NULL || T == NULL) abort();
  for (int64_t r = 0; r < ngrid; r++)
    for (int64_t q = 0; q < nproj; q++) {
      const double b = beta[r * nproj + q];
      for (int64_t j = 0; j < nstate; j++) O[q * nstate + j] += b * psi[r * nstate + j];
    }
  for (int64_t p = 0; p < nproj; p++)
    for (int64_t q = 0; q < nproj; q++) {
      const double d = dij[p * nproj + q];
      for (int64_t j = 0; j < nstate; j++) T[p * nstate + j] += d * O[q * nstate + j];
    }
  for (int64_t g = 0; g < ngrid; g++) {
    double *h = hpsi + g * nstate;
    for (int64_t j = 0; j < nstate; j++) h[j] = 0.0;
    for (int64_t p = 0; p < nproj; p++) {
      const double b = beta[g * nproj + p];
      for (int64_t j = 0; j < nstate; j++) h[j] += b * T[p * nstate + j];
    }
  }
  free(O);
  free(T);
}

void kleinman_bylander_nonlocal_fp32(const float *restrict beta, const float *restrict dij,
                                     float *restrict hpsi, const float *restrict psi,
                                     const int64_t ngrid, const int64_t nproj, const int64_t nstate,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* O = beta^T psi and T = dij O: the reference's own scratch (nproj x nstate each) */
  float *restrict O = calloc((size_t)(nproj * nstate) + 1, sizeof(float));
  float *restrict T = calloc((size_t)(nproj * nstate) + 1, sizeof(float));
  if (O == NULL || T == NULL) abort();
  for (int64_t r = 0; r < ngrid; r++)
    for (int64_t q = 0; q < nproj; q++) {
      const float b = beta[r * nproj + q];
      for (int64_t j = 0; j < nstate; j++) O[q * nstate + j] += b * psi[r * nstate + j];
    }
  for (int64_t p = 0; p < nproj; p++)
    for (int64_t q = 0; q < nproj; q++) {
      const float d = dij[p * nproj + q];
      for (int64_t j = 0; j < nstate; j++) T[p * nstate + j] += d * O[q * nstate + j];
    }
  for (int64_t g = 0; g < ngrid; g++) {
    float *h = hpsi + g * nstate;
    for (int64_t j = 0; j < nstate; j++) h[j] = 0.0f;
    for (int64_t p = 0; p < nproj; p++) {
      const float b = beta[g * nproj + p];
      for (int64_t j = 0; j < nstate; j++) h[j] += b * T[p * nstate + j];
    }
  }
  free(O);
  free(T);
}
