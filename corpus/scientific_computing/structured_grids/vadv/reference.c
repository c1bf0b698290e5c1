#include <stdint.h>

void vadv_fp64(const double *restrict u_pos, const double *restrict u_stage,
               const double *restrict utens, double *restrict utens_stage,
               const double *restrict wcon, const int64_t I, const int64_t J, const int64_t K,
               const double dtr_stage, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double BET_M = 0.5, BET_P = 0.5; /* weights of the implicit and explicit parts */
  double ccol[K]; /* one column of forward-sweep coefficients */
  for (int64_t i = 0; i < I; i++)
    for (int64_t j = 0; j < J; j++) {
      const int64_t col = (i * J + j) * K;     /* column (i, j) of the I x J x K arrays */
      const int64_t w0 = (i * J + j) * K;      /* wcon[i][j][*] */
      const int64_t w1 = ((i + 1) * J + j) * K; /* wcon[i+1][j][*] */
      /* forward sweep; the modified right-hand side overwrites utens_stage */
      for (int64_t k = 0; k < K; k++) {
        const int64_t p = col + k;
        const double rhs = dtr_stage * u_pos[p] + utens[p] + utens_stage[p];
        if (k == 0) {
          const double gcv = 0.25 * (wcon[w1 + k + 1] + wcon[w0 + k + 1]);
          const double c = gcv * BET_P;
          const double b = dtr_stage - c;
          const double corr = -(gcv * BET_M) * (u_stage[p + 1] - u_stage[p]);
          const double inv = 1.0 / b;
          ccol[k] = c * inv;
          utens_stage[p] = (rhs + corr) * inv;
          continue;
        }
        const double gav = -0.25 * (wcon[w1 + k] + wcon[w0 + k]);
        const double a = gav * BET_P;
        double corr = -(gav * BET_M) * (u_stage[p - 1] - u_stage[p]);
        double b, c = 0.0;
        if (k < K - 1) {
          const double gcv = 0.25 * (wcon[w1 + k + 1] + wcon[w0 + k + 1]);
          c = gcv * BET_P;
          b = dtr_stage - a - c;
          corr = corr - (gcv * BET_M) * (u_stage[p + 1] - u_stage[p]);
        } else {
          b = dtr_stage - a;
        }
        const double inv = 1.0 / (b - ccol[k - 1] * a);
        ccol[k] = c * inv;
        utens_stage[p] = ((rhs + corr) - utens_stage[p - 1] * a) * inv;
      }
      /* back substitution */
      double x = utens_stage[col + K - 1];
      utens_stage[col + K - 1] = dtr_stage * (x - u_pos[col + K - 1]);
      for (int64_t k = K - 2; k >= 0; k--) {
        x = utens_stage[col + k] - ccol[k] * x;
        utens_stage[col + k] = dtr_stage * (x - u_pos[col + k]);
      }
    }
}

void vadv_fp32(const float *restrict u_pos, const float *restrict u_stage,
               const float *restrict utens, float *restrict utens_stage,
               const float *restrict wcon, const int64_t I, const int64_t J, const int64_t K,
               const float dtr_stage, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float BET_M = 0.5f, BET_P = 0.5f; /* weights of the implicit and explicit parts */
  float ccol[K]; /* one column of forward-sweep coefficients */
  for (int64_t i = 0; i < I; i++)
    for (int64_t j = 0; j < J; j++) {
      const int64_t col = (i * J + j) * K;     /* column (i, j) of the I x J x K arrays */
      const int64_t w0 = (i * J + j) * K;      /* wcon[i][j][*] */
      const int64_t w1 = ((i + 1) * J + j) * K; /* wcon[i+1][j][*] */
      /* forward sweep; the modified right-hand side overwrites utens_stage */
      for (int64_t k = 0; k < K; k++) {
        const int64_t p = col + k;
        const float rhs = dtr_stage * u_pos[p] + utens[p] + utens_stage[p];
        if (k == 0) {
          const float gcv = 0.25f * (wcon[w1 + k + 1] + wcon[w0 + k + 1]);
          const float c = gcv * BET_P;
          const float b = dtr_stage - c;
          const float corr = -(gcv * BET_M) * (u_stage[p + 1] - u_stage[p]);
          const float inv = 1.0f / b;
          ccol[k] = c * inv;
          utens_stage[p] = (rhs + corr) * inv;
          continue;
        }
        const float gav = -0.25f * (wcon[w1 + k] + wcon[w0 + k]);
        const float a = gav * BET_P;
        float corr = -(gav * BET_M) * (u_stage[p - 1] - u_stage[p]);
        float b, c = 0.0f;
        if (k < K - 1) {
          const float gcv = 0.25f * (wcon[w1 + k + 1] + wcon[w0 + k + 1]);
          c = gcv * BET_P;
          b = dtr_stage - a - c;
          corr = corr - (gcv * BET_M) * (u_stage[p + 1] - u_stage[p]);
        } else {
          b = dtr_stage - a;
        }
        const float inv = 1.0f / (b - ccol[k - 1] * a);
        ccol[k] = c * inv;
        utens_stage[p] = ((rhs + corr) - utens_stage[p - 1] * a) * inv;
      }
      /* back substitution */
      float x = utens_stage[col + K - 1];
      utens_stage[col + K - 1] = dtr_stage * (x - u_pos[col + K - 1]);
      for (int64_t k = K - 2; k >= 0; k--) {
        x = utens_stage[col + k] - ccol[k] * x;
        utens_stage[col + k] = dtr_stage * (x - u_pos[col + k]);
      }
    }
}
