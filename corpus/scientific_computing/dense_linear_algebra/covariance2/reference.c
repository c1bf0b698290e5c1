#include <stdint.h>

void covariance2_fp64(double *restrict cov, const double *restrict data, const int64_t M,
                      const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double n = (double)N;
  /* the column means are kept in row 0 of cov until row 0 itself is computed, last */
  double *restrict mean = cov;
  for (int64_t j = 0; j < M; j++) {
    double s = 0.0;
    for (int64_t i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / n;
  }
  for (int64_t i = M - 1; i >= 0; i--) {
    const double mi = mean[i];
    for (int64_t j = i; j < M; j++) {
      const double mj = mean[j];
      double s = 0.0;
      for (int64_t k = 0; k < N; k++) s += (data[k * M + i] - mi) * (data[k * M + j] - mj);
      s /= (n - 1.0);
      cov[i * M + j] = s;
      cov[j * M + i] = s;
    }
  }
}

void covariance2_fp32(float *restrict cov, const float *restrict data, const int64_t M,
                      const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float n = (float)N;
  /* the column means are kept in row 0 of cov until row 0 itself is computed, last */
  float *restrict mean = cov;
  for (int64_t j = 0; j < M; j++) {
    float s = 0.0f;
    for (int64_t i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / n;
  }
  for (int64_t i = M - 1; i >= 0; i--) {
    const float mi = mean[i];
    for (int64_t j = i; j < M; j++) {
      const float mj = mean[j];
      float s = 0.0f;
      for (int64_t k = 0; k < N; k++) s += (data[k * M + i] - mi) * (data[k * M + j] - mj);
      s /= (n - 1.0f);
      cov[i * M + j] = s;
      cov[j * M + i] = s;
    }
  }
}
