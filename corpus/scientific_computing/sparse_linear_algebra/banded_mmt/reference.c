#include <stdint.h>
#include <stdlib.h>

/* Row by row: t = (A B)[i, :] over its band, then ret_out[i, j] = t . A[j, :] for the rows j of A
   whose band meets t's; the rest of the row is zero. */
void HPCAB_KERNEL(banded_mmt)(const real *restrict A, const real *restrict B,
                              real *restrict ret_out, const int64_t N, const int64_t a_lbound,
                              const int64_t a_ubound, const int64_t b_lbound,
                              const int64_t b_ubound, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t wa = a_lbound + a_ubound + 1, wb = b_lbound + b_ubound + 1;
  real *t = malloc(sizeof(real) * (size_t)N);
  for (int64_t i = 0; i < N; i++) {
    real *out = ret_out + i * N;
    for (int64_t j = 0; j < N; j++) out[j] = 0;
    const int64_t a0 = i - a_lbound > 0 ? i - a_lbound : 0;
    const int64_t a1 = i + a_ubound + 1 < N ? i + a_ubound + 1 : N;
    int64_t t0 = N, t1 = 0; /* the columns of row i of A B */
    for (int64_t k = a0; k < a1; k++) {
      const int64_t b0 = k - b_lbound > 0 ? k - b_lbound : 0;
      const int64_t b1 = k + b_ubound + 1 < N ? k + b_ubound + 1 : N;
      if (b0 < t0) t0 = b0;
      if (b1 > t1) t1 = b1;
    }
    if (t0 >= t1) continue;
    for (int64_t l = t0; l < t1; l++) t[l] = 0;
    for (int64_t k = a0; k < a1; k++) {
      const real aik = A[i * wa + (k - a0)];
      const int64_t b0 = k - b_lbound > 0 ? k - b_lbound : 0;
      const int64_t b1 = k + b_ubound + 1 < N ? k + b_ubound + 1 : N;
      for (int64_t l = b0; l < b1; l++) t[l] += aik * B[k * wb + (l - b0)];
    }
    const int64_t j0 = t0 - a_ubound > 0 ? t0 - a_ubound : 0;
    const int64_t j1 = t1 + a_lbound < N ? t1 + a_lbound : N;
    for (int64_t j = j0; j < j1; j++) {
      const int64_t c0 = j - a_lbound > 0 ? j - a_lbound : 0;
      const int64_t c1 = j + a_ubound + 1 < N ? j + a_ubound + 1 : N;
      const int64_t l0 = c0 > t0 ? c0 : t0, l1 = c1 < t1 ? c1 : t1;
      real acc = 0;
      for (int64_t l = l0; l < l1; l++) acc += t[l] * A[j * wa + (l - c0)];
      out[j] = acc;
    }
  }
  free(t);
}
