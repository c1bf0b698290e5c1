#include <math.h>
#include <stdint.h>

/* x[0..n-1] = log(x / sum(x)), in double, rounded to the run precision */
static void log_normalize(real *restrict x, const int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; i++) s += (double)x[i];
  for (int64_t i = 0; i < n; i++) x[i] = (real)log((double)x[i] / s);
}

void HPCAB_KERNEL(viterbi)(real *restrict A, real *restrict B, real *restrict delta, real *restrict logp,
                           const int32_t *restrict obs, int32_t *restrict path, real *restrict pi,
                           int32_t *restrict psi, const int64_t K, const int64_t M, const int64_t T,
                           uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  log_normalize(pi, K);
  for (int64_t i = 0; i < K; i++) log_normalize(A + i * K, K);
  for (int64_t i = 0; i < K; i++) log_normalize(B + i * M, M);
  for (int64_t j = 0; j < K; j++) {
    delta[j] = pi[j] + B[j * M + obs[0]];
    psi[j] = 0;
  }
  for (int64_t t = 1; t < T; t++)
    for (int64_t j = 0; j < K; j++) {
      real best = delta[(t - 1) * K] + A[j];
      int32_t arg = 0;
      for (int64_t i = 1; i < K; i++) {
        const real s = delta[(t - 1) * K + i] + A[i * K + j];
        if (s > best) {
          best = s;
          arg = (int32_t)i;
        }
      }
      psi[t * K + j] = arg;
      delta[t * K + j] = best + B[j * M + obs[t]];
    }
  int32_t last = 0;
  for (int64_t j = 1; j < K; j++)
    if (delta[(T - 1) * K + j] > delta[(T - 1) * K + last]) last = (int32_t)j;
  logp[0] = delta[(T - 1) * K + last];
  path[T - 1] = last;
  for (int64_t t = T - 2; t >= 0; t--) path[t] = psi[(t + 1) * K + path[t + 1]];
}
