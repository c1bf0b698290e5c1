#include <math.h>
#include <stdint.h>

void cross_entropy_loss_fp64(const double *restrict logits, double *restrict loss,
                        const int64_t *restrict target, const int64_t C, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double total = 0.0;
  for (int64_t i = 0; i < N; i++) {
    const double *restrict li = logits + i * C;
    double m = li[0];
    for (int64_t j = 1; j < C; j++) m = li[j] > m ? li[j] : m;
    double sum = 0.0;
    for (int64_t j = 0; j < C; j++) sum += exp(li[j] - m);
    total += log(sum) - (li[target[i]] - m);
  }
  loss[0] = total / (double)N;
}

void cross_entropy_loss_fp32(const float *restrict logits, float *restrict loss,
                        const int64_t *restrict target, const int64_t C, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float total = 0.0f;
  for (int64_t i = 0; i < N; i++) {
    const float *restrict li = logits + i * C;
    float m = li[0];
    for (int64_t j = 1; j < C; j++) m = li[j] > m ? li[j] : m;
    float sum = 0.0f;
    for (int64_t j = 0; j < C; j++) sum += expf(li[j] - m);
    total += logf(sum) - (li[target[i]] - m);
  }
  loss[0] = total / (float)N;
}
