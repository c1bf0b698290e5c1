#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(bellman_ford)(const real *restrict data, real *restrict dist, const int32_t *restrict indices,
                                const int32_t *restrict indptr, const int64_t E, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)E;
  (void)workspace;
  (void)workspace_size;
  for (int64_t v = 0; v < N; v++) dist[v] = INFINITY;
  dist[0] = 0;
  for (int64_t round = 0; round < N - 1; round++) {
    int changed = 0;
    for (int64_t u = 0; u < N; u++) {
      if (isinf(dist[u])) continue;
      for (int32_t p = indptr[u]; p < indptr[u + 1]; p++) {
        const real cand = dist[u] + data[p];
        if (cand < dist[indices[p]]) {
          dist[indices[p]] = cand;
          changed = 1;
        }
      }
    }
    if (!changed) break;
  }
  for (int64_t v = 0; v < N; v++)
    if (isinf(dist[v])) dist[v] = -1;
}
