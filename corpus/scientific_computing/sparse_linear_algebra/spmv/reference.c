#include <stdint.h>

void HPCAB_KERNEL(spmv)(const real *restrict data, const int64_t *restrict indices,
                        const int64_t *restrict indptr, const real *restrict x, real *restrict y,
                        const int64_t N, const int64_t NNZ, uint8_t *restrict workspace,
                        const int64_t workspace_size) {
  (void)NNZ;
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    real s = (real)0.0;
    for (int64_t p = indptr[i]; p < indptr[i + 1]; p++) s += data[p] * x[indices[p]];
    y[i] = s;
  }
}
