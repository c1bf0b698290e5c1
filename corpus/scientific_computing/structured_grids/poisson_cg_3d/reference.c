#include <stdint.h>
#include <stdlib.h>

void HPCAB_KERNEL(poisson_cg_3d)(real *restrict V, const real *restrict rho, const int64_t N,
                                 const real inv_h2, const int64_t niter,
                                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n = N * N * N;
  real *r = malloc(sizeof(real) * 3 * (size_t)n), *p = r + n, *q = p + n;
  const real four_pi = (real)((real)4.0 * (real)3.14159265358979323846);
  real mean = 0;
  for (int64_t t = 0; t < n; t++) mean += four_pi * rho[t];
  mean /= (real)n;
  real rr = 0;
  for (int64_t t = 0; t < n; t++) {
    V[t] = 0;
    r[t] = four_pi * rho[t] - mean;
    p[t] = r[t];
    rr += r[t] * r[t];
  }
  for (int64_t it = 0; it < niter; it++) {
    real pq = 0;
    for (int64_t i = 0; i < N; i++) {
      const int64_t im = (i + N - 1) % N, ip = (i + 1) % N;
      for (int64_t j = 0; j < N; j++) {
        const int64_t jm = (j + N - 1) % N, jp = (j + 1) % N;
        for (int64_t k = 0; k < N; k++) {
          const int64_t km = (k + N - 1) % N, kp = (k + 1) % N;
          const int64_t t = (i * N + j) * N + k;
          q[t] = inv_h2 * ((real)6 * p[t] - p[(im * N + j) * N + k] - p[(ip * N + j) * N + k] -
                           p[(i * N + jm) * N + k] - p[(i * N + jp) * N + k] -
                           p[(i * N + j) * N + km] - p[(i * N + j) * N + kp]);
          pq += p[t] * q[t];
        }
      }
    }
    const real alpha = rr / (pq + (real)1e-30);
    real rr_new = 0;
    for (int64_t t = 0; t < n; t++) {
      V[t] += alpha * p[t];
      r[t] -= alpha * q[t];
      rr_new += r[t] * r[t];
    }
    const real beta = rr_new / rr;
    for (int64_t t = 0; t < n; t++) p[t] = r[t] + beta * p[t];
    rr = rr_new;
  }
  real vmean = 0;
  for (int64_t t = 0; t < n; t++) vmean += V[t];
  vmean /= (real)n;
  for (int64_t t = 0; t < n; t++) V[t] -= vmean;
  free(r);
}
