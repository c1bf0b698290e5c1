#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static void bicgstab_matvec(const real *restrict data, const int32_t *restrict indices,
                            const int32_t *restrict indptr, const int64_t N, const real shift,
                            const real *restrict v, real *restrict y) {
  for (int64_t i = 0; i < N; i++) {
    real acc = 0;
    for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) acc += data[k] * v[indices[k]];
    y[i] = acc + shift * v[i];
  }
}
static real bicgstab_dot(const real *restrict a, const real *restrict b, const int64_t N) {
  real s = 0;
  for (int64_t i = 0; i < N; i++) s += a[i] * b[i];
  return s;
}
void HPCAB_KERNEL(bicgstab)(const real *restrict b, const real *restrict data,
                            const int32_t *restrict indices, const int32_t *restrict indptr,
                            real *restrict x, const int64_t N, const int64_t NNZ,
                            const int64_t iters, uint8_t *restrict workspace,
                            const int64_t workspace_size) {
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
  real *r = malloc(sizeof(real) * 6 * (size_t)N), *rt = r + N, *p = rt + N, *v = p + N, *s = v + N,
       *t = s + N;
  bicgstab_matvec(data, indices, indptr, N, shift, x, t);
  for (int64_t i = 0; i < N; i++) {
    r[i] = b[i] - t[i];
    rt[i] = r[i];
    p[i] = 0;
    v[i] = 0;
  }
  real rho_old = 1, alpha = 1, omega = 1;
  for (int64_t it = 0; it < iters; it++) {
    const real rho = bicgstab_dot(rt, r, N);
    const real beta = (rho / rho_old) * (alpha / omega);
    for (int64_t i = 0; i < N; i++) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    bicgstab_matvec(data, indices, indptr, N, shift, p, v);
    alpha = rho / bicgstab_dot(rt, v, N);
    for (int64_t i = 0; i < N; i++) s[i] = r[i] - alpha * v[i];
    bicgstab_matvec(data, indices, indptr, N, shift, s, t);
    omega = bicgstab_dot(t, s, N) / bicgstab_dot(t, t, N);
    for (int64_t i = 0; i < N; i++) {
      x[i] += alpha * p[i] + omega * s[i];
      r[i] = s[i] - omega * t[i];
    }
    rho_old = rho;
  }
  free(r);
}
