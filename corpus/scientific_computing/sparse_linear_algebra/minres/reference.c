#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* y = (C + C^T + shift I) v */
static void minres_matvec(const real *restrict data, const int32_t *restrict indices,
                          const int32_t *restrict indptr, const int64_t N, const real shift,
                          const real *restrict v, real *restrict y, real *restrict ct) {
  for (int64_t i = 0; i < N; i++) ct[i] = 0;
  for (int64_t i = 0; i < N; i++)
    for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) ct[indices[k]] += data[k] * v[i];
  for (int64_t i = 0; i < N; i++) {
    real acc = 0;
    for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) acc += data[k] * v[indices[k]];
    y[i] = (acc + ct[i]) + shift * v[i];
  }
}
static real minres_dot(const real *restrict a, const real *restrict b, const int64_t N) {
  real s = 0;
  for (int64_t i = 0; i < N; i++) s += a[i] * b[i];
  return s;
}
void HPCAB_KERNEL(minres)(const real *restrict b, const real *restrict data,
                          const int32_t *restrict indices, const int32_t *restrict indptr,
                          real *restrict x, const int64_t N, const int64_t NNZ, const int64_t iters,
                          uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)NNZ;
  (void)workspace;
  (void)workspace_size;
  real *v = malloc(sizeof(real) * 7 * (size_t)N), *vp = v + N, *u = vp + N, *w = u + N, *w1 = w + N,
       *w2 = w1 + N, *ct = w2 + N;
  /* shift: 1.01 times the largest row sum plus column sum of |C| */
  for (int64_t i = 0; i < N; i++) u[i] = 0;
  for (int64_t i = 0; i < N; i++)
    for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) {
      u[i] += fabs(data[k]);
      u[indices[k]] += fabs(data[k]);
    }
  real big = 0;
  for (int64_t i = 0; i < N; i++)
    if (u[i] > big) big = u[i];
  const real shift = (real)1.01 * big;
  minres_matvec(data, indices, indptr, N, shift, x, u, ct);
  for (int64_t i = 0; i < N; i++) u[i] = b[i] - u[i];
  const real beta1 = sqrt(minres_dot(u, u, N));
  for (int64_t i = 0; i < N; i++) {
    v[i] = u[i] / beta1;
    vp[i] = 0;
    w[i] = 0;
    w2[i] = 0;
  }
  real coupling = 0, cs = -1, sn = 0, dbar = 0, eps = 0, phibar = beta1;
  for (int64_t it = 0; it < iters; it++) {
    minres_matvec(data, indices, indptr, N, shift, v, u, ct);
    const real alpha = minres_dot(v, u, N);
    for (int64_t i = 0; i < N; i++) u[i] = u[i] - alpha * v[i] - coupling * vp[i];
    const real beta_next = sqrt(minres_dot(u, u, N));
    const real old_eps = eps;
    const real delta = cs * dbar + sn * alpha;
    const real gbar = sn * dbar - cs * alpha;
    eps = sn * beta_next;
    dbar = -cs * beta_next;
    const real gamma = sqrt(gbar * gbar + beta_next * beta_next);
    cs = gbar / gamma;
    sn = beta_next / gamma;
    const real phi = cs * phibar;
    phibar = sn * phibar;
    for (int64_t i = 0; i < N; i++) {
      const real wn = (v[i] - old_eps * w2[i] - delta * w[i]) / gamma;
      w2[i] = w[i];
      w[i] = wn;
      x[i] += phi * wn;
      vp[i] = v[i];
      v[i] = u[i] / beta_next;
    }
    coupling = beta_next;
  }
  (void)w1;
  free(v);
}
