#include <stdint.h>

void HPCAB_KERNEL(seissol_batched_gemm)(const real *restrict Astar, const real *restrict K,
                                        const real *restrict Q, real *restrict Q_out,
                                        const int64_t NB, const int64_t NE, const int64_t NQ,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t e = 0; e < NE; e++) {
    const real *Qe = Q + e * NB * NQ;
    const real *Ae = Astar + e * NQ * NQ;
    real *Oe = Q_out + e * NB * NQ;
    for (int64_t i = 0; i < NB; i++)
      for (int64_t q = 0; q < NQ; q++) {
        /* (K Q[e])[i][q], then its contribution to row i of the product with Astar[e] */
        real kq = 0;
        for (int64_t k = 0; k < NB; k++) kq += K[i * NB + k] * Qe[k * NQ + q];
        for (int64_t j = 0; j < NQ; j++) Oe[i * NQ + j] += kq * Ae[q * NQ + j];
      }
  }
}
