#include <math.h>
#include <stdint.h>

void correlation_fp64(double *restrict corr, double *restrict data, double *restrict mean,
                      double *restrict stddev, const int64_t M, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double n = (double)N;
  const double eps = 0.1;
  for (int64_t j = 0; j < M; j++) {
    double s = 0.0;
    for (int64_t i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / n;
  }
  for (int64_t j = 0; j < M; j++) {
    double s = 0.0;
    for (int64_t i = 0; i < N; i++) {
      const double d = data[i * M + j] - mean[j];
      s += d * d;
    }
    const double sd = sqrt(s / n);
    stddev[j] = sd <= eps ? 1.0 : sd;
  }
  const double sn = sqrt(n);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      data[i * M + j] -= mean[j];
      data[i * M + j] /= sn * stddev[j];
    }
  for (int64_t i = 0; i < M; i++) {
    corr[i * M + i] = 1.0;
    for (int64_t j = i + 1; j < M; j++) {
      double s = 0.0;
      for (int64_t k = 0; k < N; k++) s += data[k * M + i] * data[k * M + j];
      corr[i * M + j] = s;
      corr[j * M + i] = s;
    }
  }
}

void correlation_fp32(float *restrict corr, float *restrict data, float *restrict mean,
                      float *restrict stddev, const int64_t M, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float n = (float)N;
  const float eps = 0.1f;
  for (int64_t j = 0; j < M; j++) {
    float s = 0.0f;
    for (int64_t i = 0; i < N; i++) s += data[i * M + j];
    mean[j] = s / n;
  }
  for (int64_t j = 0; j < M; j++) {
    float s = 0.0f;
    for (int64_t i = 0; i < N; i++) {
      const float d = data[i * M + j] - mean[j];
      s += d * d;
    }
    const float sd = sqrtf(s / n);
    stddev[j] = sd <= eps ? 1.0f : sd;
  }
  const float sn = sqrtf(n);
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) {
      data[i * M + j] -= mean[j];
      data[i * M + j] /= sn * stddev[j];
    }
  for (int64_t i = 0; i < M; i++) {
    corr[i * M + i] = 1.0f;
    for (int64_t j = i + 1; j < M; j++) {
      float s = 0.0f;
      for (int64_t k = 0; k < N; k++) s += data[k * M + i] * data[k * M + j];
      corr[i * M + j] = s;
      corr[j * M + i] = s;
    }
  }
}
