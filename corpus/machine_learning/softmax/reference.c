#include <math.h>
#include <stdint.h>

void softmax_fp64(double *restrict out, const double *restrict x, const int64_t D, const int64_t N,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const double *restrict xi = x + i * D;
    double *restrict oi = out + i * D;
    double m = xi[0];
    for (int64_t j = 1; j < D; j++) m = xi[j] > m ? xi[j] : m;
    double sum = 0.0;
    for (int64_t j = 0; j < D; j++) {
      oi[j] = exp(xi[j] - m);
      sum += oi[j];
    }
    for (int64_t j = 0; j < D; j++) oi[j] /= sum;
  }
}

void softmax_fp32(float *restrict out, const float *restrict x, const int64_t D, const int64_t N,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const float *restrict xi = x + i * D;
    float *restrict oi = out + i * D;
    float m = xi[0];
    for (int64_t j = 1; j < D; j++) m = xi[j] > m ? xi[j] : m;
    float sum = 0.0f;
    for (int64_t j = 0; j < D; j++) {
      oi[j] = expf(xi[j] - m);
      sum += oi[j];
    }
    for (int64_t j = 0; j < D; j++) oi[j] /= sum;
  }
}
