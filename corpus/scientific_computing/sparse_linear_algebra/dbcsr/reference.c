#include <stdint.h>

void HPCAB_KERNEL(dbcsr)(real *restrict C, const real *restrict a_blocks,
                         const int32_t *restrict a_row, const real *restrict b_blocks,
                         const int32_t *restrict b_col, const int64_t block_size,
                         const int64_t n_block_cols, const int64_t n_block_inner,
                         const int64_t n_block_rows, uint8_t *restrict workspace,
                         const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t bs = block_size, ldc = n_block_cols * bs;
  const int64_t nk = n_block_inner;
  const int64_t na = n_block_rows * nk / 4 > nk ? n_block_rows * nk / 4 : nk;
  const int64_t nb = nk * n_block_cols / 4 > nk ? nk * n_block_cols / 4 : nk;
  for (int64_t i = 0; i < n_block_rows * bs * ldc; i++) C[i] = (real)0.0;
  for (int64_t p = 0; p < na; p++) {
    const real *A = a_blocks + p * bs * bs;
    for (int64_t q = 0; q < nb; q++) {
      if (q % nk != p % nk) continue;
      const real *B = b_blocks + q * bs * bs;
      real *Cb = C + (int64_t)a_row[p] * bs * ldc + (int64_t)b_col[q] * bs;
      for (int64_t i = 0; i < bs; i++)
        for (int64_t k = 0; k < bs; k++) {
          const real aik = A[i * bs + k];
          for (int64_t j = 0; j < bs; j++) Cb[i * ldc + j] += aik * B[k * bs + j];
        }
    }
  }
}
