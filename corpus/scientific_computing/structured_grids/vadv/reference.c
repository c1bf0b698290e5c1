#include <stdint.h>

void HPCAB_KERNEL(vadv)(const real *restrict u_pos, const real *restrict u_stage,
                        const real *restrict utens, real *restrict utens_stage,
                        const real *restrict wcon, const int64_t I, const int64_t J, const int64_t K,
                        const real dtr_stage, uint8_t *restrict workspace,
                        const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real BET_M = (real)0.5, BET_P = (real)0.5; /* weights of the implicit and explicit parts */
  real ccol[K]; /* one column of forward-sweep coefficients */
  for (int64_t i = 0; i < I; i++)
    for (int64_t j = 0; j < J; j++) {
      const int64_t col = (i * J + j) * K;     /* column (i, j) of the I x J x K arrays */
      const int64_t w0 = (i * J + j) * K;      /* wcon[i][j][*] */
      const int64_t w1 = ((i + 1) * J + j) * K; /* wcon[i+1][j][*] */
      /* forward sweep; the modified right-hand side overwrites utens_stage */
      for (int64_t k = 0; k < K; k++) {
        const int64_t p = col + k;
        const real rhs = dtr_stage * u_pos[p] + utens[p] + utens_stage[p];
        if (k == 0) {
          const real gcv = (real)0.25 * (wcon[w1 + k + 1] + wcon[w0 + k + 1]);
          const real c = gcv * BET_P;
          const real b = dtr_stage - c;
          const real corr = -(gcv * BET_M) * (u_stage[p + 1] - u_stage[p]);
          const real inv = (real)1.0 / b;
          ccol[k] = c * inv;
          utens_stage[p] = (rhs + corr) * inv;
          continue;
        }
        const real gav = -(real)0.25 * (wcon[w1 + k] + wcon[w0 + k]);
        const real a = gav * BET_P;
        real corr = -(gav * BET_M) * (u_stage[p - 1] - u_stage[p]);
        real b, c = (real)0.0;
        if (k < K - 1) {
          const real gcv = (real)0.25 * (wcon[w1 + k + 1] + wcon[w0 + k + 1]);
          c = gcv * BET_P;
          b = dtr_stage - a - c;
          corr = corr - (gcv * BET_M) * (u_stage[p + 1] - u_stage[p]);
        } else {
          b = dtr_stage - a;
        }
        const real inv = (real)1.0 / (b - ccol[k - 1] * a);
        ccol[k] = c * inv;
        utens_stage[p] = ((rhs + corr) - utens_stage[p - 1] * a) * inv;
      }
      /* back substitution */
      real x = utens_stage[col + K - 1];
      utens_stage[col + K - 1] = dtr_stage * (x - u_pos[col + K - 1]);
      for (int64_t k = K - 2; k >= 0; k--) {
        x = utens_stage[col + k] - ccol[k] * x;
        utens_stage[col + k] = dtr_stage * (x - u_pos[col + k]);
      }
    }
}
