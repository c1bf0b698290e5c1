#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static void gmres_matvec(const real *restrict data, const int32_t *restrict indices,
                         const int32_t *restrict indptr, const int64_t N, const real shift,
                         const real *restrict v, real *restrict y) {
  for (int64_t i = 0; i < N; i++) {
    real acc = 0;
    for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) acc += data[k] * v[indices[k]];
    y[i] = acc + shift * v[i];
  }
}
static real gmres_dot(const real *restrict a, const real *restrict b, const int64_t N) {
  real s = 0;
  for (int64_t i = 0; i < N; i++) s += a[i] * b[i];
  return s;
}
void HPCAB_KERNEL(gmres)(const real *restrict b, const real *restrict data,
                         const int32_t *restrict indices, const int32_t *restrict indptr,
                         real *restrict x, const int64_t N, const int64_t NNZ, const int64_t m,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)NNZ;
  (void)workspace;
  (void)workspace_size;
  real big = 0; /* the largest row sum of |C| */
  for (int64_t i = 0; i < N; i++) {
    real s = 0;
    for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) s += fabs(data[k]);
    if (s > big) big = s;
  }
  const real shift = (real)1.01 * big;
  real *q = malloc(sizeof(real) * (size_t)((m + 1) * N + (m + 1) * m + 3 * (m + 1)));
  real *h = q + (m + 1) * N, *g = h + (m + 1) * m, *cs = g + (m + 1), *sn = cs + (m + 1);
  for (int64_t t = 0; t < (m + 1) * m; t++) h[t] = 0;
  gmres_matvec(data, indices, indptr, N, shift, x, q);
  for (int64_t i = 0; i < N; i++) q[i] = b[i] - q[i];
  const real beta = sqrt(gmres_dot(q, q, N));
  for (int64_t i = 0; i < N; i++) q[i] = q[i] / beta;
  for (int64_t k = 0; k < m; k++) {
    real *y = q + (k + 1) * N;
    gmres_matvec(data, indices, indptr, N, shift, q + k * N, y);
    for (int64_t j = 0; j <= k; j++) {
      const real hjk = gmres_dot(q + j * N, y, N);
      h[j * m + k] = hjk;
      for (int64_t i = 0; i < N; i++) y[i] -= hjk * q[j * N + i];
    }
    const real nrm = sqrt(gmres_dot(y, y, N));
    h[(k + 1) * m + k] = nrm;
    for (int64_t i = 0; i < N; i++) y[i] = y[i] / nrm;
  }
  /* least squares min |beta e1 - H z|: Givens rotations make H upper triangular */
  for (int64_t t = 0; t <= m; t++) g[t] = 0;
  g[0] = beta;
  for (int64_t k = 0; k < m; k++) {
    for (int64_t j = 0; j < k; j++) {
      const real a = h[j * m + k], c = h[(j + 1) * m + k];
      h[j * m + k] = cs[j] * a + sn[j] * c;
      h[(j + 1) * m + k] = -sn[j] * a + cs[j] * c;
    }
    const real a = h[k * m + k], c = h[(k + 1) * m + k];
    const real rr = sqrt(a * a + c * c);
    cs[k] = a / rr;
    sn[k] = c / rr;
    h[k * m + k] = rr;
    h[(k + 1) * m + k] = 0;
    const real g0 = g[k], g1 = g[k + 1];
    g[k] = cs[k] * g0 + sn[k] * g1;
    g[k + 1] = -sn[k] * g0 + cs[k] * g1;
  }
  for (int64_t k = m - 1; k >= 0; k--) {
    real acc = g[k];
    for (int64_t j = k + 1; j < m; j++) acc -= h[k * m + j] * g[j];
    g[k] = acc / h[k * m + k];
  }
  for (int64_t k = 0; k < m; k++)
    for (int64_t i = 0; i < N; i++) x[i] += g[k] * q[k * N + i];
  free(q);
}
