#include <stdint.h>

void HPCAB_KERNEL(covariance)(real *restrict cov, real *restrict data, real *restrict mean,
                              const int64_t M, const int64_t N, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real n = (real)N;
  for (int64_t j = 0; j < M; j++) {
    real s = (real)0.0;
    for (int64_t i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / n;
  }
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) data[i * M + j] -= mean[j];
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = i; j < M; j++) {
      real s = (real)0.0;
      for (int64_t k = 0; k < N; k++) s += data[k * M + i] * data[k * M + j];
      s /= (n - (real)1.0);
      cov[i * M + j] = s;
      cov[j * M + i] = s;
    }
}
