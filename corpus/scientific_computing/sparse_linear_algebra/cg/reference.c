#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *cg_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void HPCAB_KERNEL(cg)(const real *restrict b, const real *restrict data, const int32_t *restrict indices,
                      const int32_t *restrict indptr, real *restrict x, const int64_t N, const int64_t NNZ,
                      const int64_t iters, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)NNZ;
  (void)workspace;
  (void)workspace_size;
  /* the operator's diagonal and CG's vectors: the reference's own scratch, not graded */
  real *restrict diag = cg_scratch(N, sizeof(real));
  real *restrict p = cg_scratch(N, sizeof(real));
  real *restrict q = cg_scratch(N, sizeof(real));
  real *restrict r = cg_scratch(N, sizeof(real));
  /* D = 1 + row and column absolute sums of C */
  for (int64_t i = 0; i < N; i++) diag[i] = 1;
  for (int64_t i = 0; i < N; i++)
    for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) {
      diag[i] += fabs(data[k]);
      diag[indices[k]] += fabs(data[k]);
    }
  real rr = 0;
  for (int64_t i = 0; i < N; i++) {
    x[i] = 0;
    r[i] = b[i];
    p[i] = b[i];
    rr += r[i] * r[i];
  }
  for (int64_t it = 0; it < iters; it++) {
    /* q = (D + C + C^T) p */
    for (int64_t i = 0; i < N; i++) q[i] = diag[i] * p[i];
    for (int64_t i = 0; i < N; i++)
      for (int32_t k = indptr[i]; k < indptr[i + 1]; k++) {
        q[i] += data[k] * p[indices[k]];
        q[indices[k]] += data[k] * p[i];
      }
    real pq = 0;
    for (int64_t i = 0; i < N; i++) pq += p[i] * q[i];
    const real alpha = rr / pq;
    real rr_new = 0;
    for (int64_t i = 0; i < N; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      rr_new += r[i] * r[i];
    }
    const real beta = rr_new / rr;
    for (int64_t i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
    rr = rr_new;
  }
  free(diag);
  free(p);
  free(q);
  free(r);
}
