#include <stdint.h>

void HPCAB_KERNEL(edge_laplacian)(const int32_t *restrict dst, real *restrict lap, const int32_t *restrict src,
                                  const real *restrict u, const real *restrict w, const int64_t E, const int64_t N,
                                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t v = 0; v < N; v++) lap[v] = 0;
  for (int64_t e = 0; e < E; e++) {
    const real flux = w[e] * (u[dst[e]] - u[src[e]]);
    lap[src[e]] += flux;
    lap[dst[e]] -= flux;
  }
}
