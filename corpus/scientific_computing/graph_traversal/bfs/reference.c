#include <stdint.h>

void HPCAB_KERNEL(bfs)(const real *restrict data, const int32_t *restrict indices,
                       const int32_t *restrict indptr, int32_t *restrict level, const int64_t E,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)E;
  (void)workspace;
  (void)workspace_size;
  for (int64_t v = 0; v < N; v++) level[v] = -1;
  level[0] = 0;
  /* level-synchronous sweep: expand every vertex of the current depth */
  for (int32_t depth = 0;; depth++) {
    int grew = 0;
    for (int64_t u = 0; u < N; u++) {
      if (level[u] != depth) continue;
      for (int32_t p = indptr[u]; p < indptr[u + 1]; p++) {
        const int32_t v = indices[p];
        if (data[p] > 0 && level[v] < 0) {
          level[v] = depth + 1;
          grew = 1;
        }
      }
    }
    if (!grew) break;
  }
}
