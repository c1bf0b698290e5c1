#include <stdint.h>

void durbin_fp64(const double *restrict r, double *restrict y, const int64_t N,
                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  y[0] = -r[0];
  double beta = 1.0;
  double alpha = -r[0];
  for (int64_t k = 1; k < N; k++) {
    beta = (1.0 - alpha * alpha) * beta;
    double sum = 0.0;
    for (int64_t i = 0; i < k; i++) sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    /* y[i] += alpha * y[k-1-i] for i < k, pairwise so that each pair reads the old values */
    for (int64_t i = 0, j = k - 1; i <= j; i++, j--) {
      const double yi = y[i];
      const double yj = y[j];
      y[i] = yi + alpha * yj;
      if (i != j) y[j] = yj + alpha * yi;
    }
    y[k] = alpha;
  }
}

void durbin_fp32(const float *restrict r, float *restrict y, const int64_t N,
                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  y[0] = -r[0];
  float beta = 1.0f;
  float alpha = -r[0];
  for (int64_t k = 1; k < N; k++) {
    beta = (1.0f - alpha * alpha) * beta;
    float sum = 0.0f;
    for (int64_t i = 0; i < k; i++) sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    /* y[i] += alpha * y[k-1-i] for i < k, pairwise so that each pair reads the old values */
    for (int64_t i = 0, j = k - 1; i <= j; i++, j--) {
      const float yi = y[i];
      const float yj = y[j];
      y[i] = yi + alpha * yj;
      if (i != j) y[j] = yj + alpha * yi;
    }
    y[k] = alpha;
  }
}
