#include <stdint.h>

void HPCAB_KERNEL(covariance2)(real *restrict cov, const real *restrict data, const int64_t M,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real n = (real)N;
  /* the column means are kept in row 0 of cov until row 0 itself is computed, last */
  real *restrict mean = cov;
  for (int64_t j = 0; j < M; j++) {
    real s = (real)0.0;
    for (int64_t i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / n;
  }
  for (int64_t i = M - 1; i >= 0; i--) {
    const real mi = mean[i];
    for (int64_t j = i; j < M; j++) {
      const real mj = mean[j];
      real s = (real)0.0;
      for (int64_t k = 0; k < N; k++) s += (data[k * M + i] - mi) * (data[k * M + j] - mj);
      s /= (n - (real)1.0);
      cov[i * M + j] = s;
      cov[j * M + i] = s;
    }
  }
}
