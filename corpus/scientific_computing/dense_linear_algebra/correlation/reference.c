#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(correlation)(real *restrict corr, real *restrict data, real *restrict mean,
                               real *restrict stddev, const int64_t M, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real n = (real)N;
  const real eps = (real)0.1;
  for (int64_t j = 0; j < M; j++) {
    real s = (real)0.0;
    for (int64_t i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / n;
  }
  for (int64_t j = 0; j < M; j++) {
    real s = (real)0.0;
    for (int64_t i = 0; i < N; i++) {
      const real d = data[i * M + j] - mean[j];
      s += d * d;
    }
    const real sd = sqrt(s / n);
    stddev[j] = sd <= eps ? (real)1.0 : sd;
  }
  const real sn = sqrt(n);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      data[i * M + j] -= mean[j];
      data[i * M + j] /= sn * stddev[j];
    }
  for (int64_t i = 0; i < M; i++) {
    corr[i * M + i] = (real)1.0;
    for (int64_t j = i + 1; j < M; j++) {
      real s = (real)0.0;
      for (int64_t k = 0; k < N; k++) s += data[k * M + i] * data[k * M + j];
      corr[i * M + j] = s;
      corr[j * M + i] = s;
    }
  }
}
