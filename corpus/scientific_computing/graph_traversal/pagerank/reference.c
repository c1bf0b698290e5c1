#include <stdint.h>
#include <stdlib.h>

void HPCAB_KERNEL(pagerank)(const real *restrict data, const int32_t *restrict indices,
                            const int32_t *restrict indptr, real *restrict rank, const int64_t E,
                            const int64_t N, const real damping, const int64_t iters,
                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)E;
  (void)workspace;
  (void)workspace_size;
  /* the previous iterate: the reference's own scratch, not graded */
  real *restrict prev = calloc(N > 0 ? (size_t)N : 1, sizeof(real));
  if (prev == NULL) abort();
  for (int64_t v = 0; v < N; v++) rank[v] = (real)1 / (real)N;
  for (int64_t it = 0; it < iters; it++) {
    real dangling = 0;
    for (int64_t u = 0; u < N; u++) {
      prev[u] = rank[u];
      if (indptr[u] == indptr[u + 1]) dangling += prev[u];
    }
    const real base = (1 - damping) / (real)N + damping * dangling / (real)N;
    for (int64_t v = 0; v < N; v++) rank[v] = base;
    for (int64_t u = 0; u < N; u++) {
      real w = 0;
      for (int32_t p = indptr[u]; p < indptr[u + 1]; p++) w += data[p];
      if (w == 0) continue;
      const real share = damping * prev[u] / w;
      for (int32_t p = indptr[u]; p < indptr[u + 1]; p++) rank[indices[p]] += share * data[p];
    }
  }
  free(prev);
}
