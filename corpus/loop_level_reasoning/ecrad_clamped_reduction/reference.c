#include <math.h>
#include <stdint.h>

void ecrad_clamped_reduction_fp64(const double *restrict d, double *restrict out,
                                  const double *restrict x, const double *restrict y,
                                  const int64_t N, uint8_t *restrict workspace,
                                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const double k = sqrt(fmax(x[i] * x[i] + y[i] * y[i], 1.0e-12));
    const double e = exp(-k * d[i]);
    const double clamped = e < 1.0 ? e : 1.0;
    out[i] = clamped > 0.0 ? clamped : 0.0;
  }
}

void ecrad_clamped_reduction_fp32(const float *restrict d, float *restrict out,
                                  const float *restrict x, const float *restrict y,
                                  const int64_t N, uint8_t *restrict workspace,
                                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const float k = sqrtf(fmaxf(x[i] * x[i] + y[i] * y[i], 1.0e-12f));
    const float e = expf(-k * d[i]);
    const float clamped = e < 1.0f ? e : 1.0f;
    out[i] = clamped > 0.0f ? clamped : 0.0f;
  }
}
