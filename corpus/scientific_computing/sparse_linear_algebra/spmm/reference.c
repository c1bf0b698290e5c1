#include <stdint.h>

void HPCAB_KERNEL(spmm)(const real *restrict A_data, const int32_t *restrict A_indices,
                        const int32_t *restrict A_indptr, const real *restrict B_data,
                        const int32_t *restrict B_indices, const int32_t *restrict B_indptr,
                        real *restrict C, const int64_t NI, const int64_t NJ, const int64_t NK,
                        const int64_t nnz_A, const int64_t nnz_B, uint8_t *restrict workspace,
                        const int64_t workspace_size) {
  (void)NK;
  (void)nnz_A;
  (void)nnz_B;
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < NI; i++) {
    real *restrict c = C + i * NJ;
    for (int64_t j = 0; j < NJ; j++) c[j] = 0;
    for (int32_t pa = A_indptr[i]; pa < A_indptr[i + 1]; pa++) {
      const real a = A_data[pa];
      const int32_t k = A_indices[pa];
      for (int32_t pb = B_indptr[k]; pb < B_indptr[k + 1]; pb++)
        c[B_indices[pb]] += a * B_data[pb];
    }
  }
}
