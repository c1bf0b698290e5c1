#include <stdint.h>
#include <stdlib.h>

void HPCAB_KERNEL(seissol_tensor_contraction)(const real *restrict I, real *restrict Q,
                                              const real *restrict kDivM, const real *restrict star,
                                              const int64_t NB, const int64_t NQ,
                                              const int64_t batch, uint8_t *restrict workspace,
                                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* per element: t = I[b] star[d] (NB x NQ), then acc += kDivM[d] t over the 3 directions */
  real *restrict t = malloc((size_t)(NB * NQ) * sizeof(real));
  real *restrict acc = malloc((size_t)(NB * NQ) * sizeof(real));
  if (t == NULL || acc == NULL) abort();
  for (int64_t b = 0; b < batch; b++) {
    const real *Ib = I + b * NB * NQ;
    real *Qb = Q + b * NB * NQ;
    for (int64_t x = 0; x < NB * NQ; x++) acc[x] = (real)0.0;
    for (int64_t d = 0; d < 3; d++) {
      const real *S = star + d * NQ * NQ;
      const real *K = kDivM + d * NB * NB;
      for (int64_t l = 0; l < NB; l++)
        for (int64_t p = 0; p < NQ; p++) {
          real s = (real)0.0;
          for (int64_t q = 0; q < NQ; q++) s += Ib[l * NQ + q] * S[q * NQ + p];
          t[l * NQ + p] = s;
        }
      for (int64_t k = 0; k < NB; k++)
        for (int64_t l = 0; l < NB; l++) {
          const real a = K[k * NB + l];
          for (int64_t p = 0; p < NQ; p++) acc[k * NQ + p] += a * t[l * NQ + p];
        }
    }
    for (int64_t x = 0; x < NB * NQ; x++) Qb[x] += acc[x];
  }
  free(t);
  free(acc);
}
