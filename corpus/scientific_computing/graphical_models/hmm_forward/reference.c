#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(hmm_forward)(const real *restrict A, const real *restrict B, real *restrict alpha,
                               real *restrict loglik,
                               const int32_t *restrict obs, const real *restrict pi, real *restrict scale,
                               const int64_t K, const int64_t M, const int64_t T, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real ll = 0;
  for (int64_t t = 0; t < T; t++) {
    real *restrict a = alpha + t * K;
    for (int64_t j = 0; j < K; j++) {
      real v;
      if (t == 0) {
        v = pi[j];
      } else {
        v = 0;
        for (int64_t i = 0; i < K; i++) v += alpha[(t - 1) * K + i] * A[i * K + j];
      }
      a[j] = v * B[j * M + obs[t]];
    }
    real c = 0;
    for (int64_t j = 0; j < K; j++) c += a[j];
    for (int64_t j = 0; j < K; j++) a[j] /= c;
    scale[t] = c;
    ll += log(c);
  }
  loglik[0] = ll;
}
