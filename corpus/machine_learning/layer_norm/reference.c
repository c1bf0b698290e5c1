#include <math.h>
#include <stdint.h>

void layer_norm_fp64(const double *restrict beta, const double *restrict gamma,
                     double *restrict out, const double *restrict x, const int64_t D,
                     const int64_t N, const double eps, uint8_t *restrict workspace,
                     const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const double *restrict xi = x + i * D;
    double *restrict oi = out + i * D;
    double sum = 0.0;
    for (int64_t j = 0; j < D; j++) sum += xi[j];
    const double mean = sum / (double)D;
    double sq = 0.0;
    for (int64_t j = 0; j < D; j++) {
      const double d = xi[j] - mean;
      sq += d * d;
    }
    const double std = sqrt(sq / (double)D + eps);
    for (int64_t j = 0; j < D; j++) oi[j] = (xi[j] - mean) / std * gamma[j] + beta[j];
  }
}

void layer_norm_fp32(const float *restrict beta, const float *restrict gamma, float *restrict out,
                     const float *restrict x, const int64_t D, const int64_t N, const float eps,
                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const float *restrict xi = x + i * D;
    float *restrict oi = out + i * D;
    float sum = 0.0f;
    for (int64_t j = 0; j < D; j++) sum += xi[j];
    const float mean = sum / (float)D;
    float sq = 0.0f;
    for (int64_t j = 0; j < D; j++) {
      const float d = xi[j] - mean;
      sq += d * d;
    }
    const float std = sqrtf(sq / (float)D + eps);
    for (int64_t j = 0; j < D; j++) oi[j] = (xi[j] - mean) / std * gamma[j] + beta[j];
  }
}
