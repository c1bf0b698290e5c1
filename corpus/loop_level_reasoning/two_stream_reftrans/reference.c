#include <math.h>
#include <stdint.h>

void two_stream_reftrans_fp64(const double *restrict g1, const double *restrict g2,
                              const double *restrict od, double *restrict ref,
                              double *restrict trans, const int64_t NG, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < NG; j++) {
    double r, t;
    if (od[j] > 0.001) {
      const double q = (g1[j] - g2[j]) * (g1[j] + g2[j]);
      const double k = sqrt(q > 1e-12 ? q : 1e-12);
      const double e = exp(-k * od[j]);
      const double e2 = e * e;
      const double rf = 1.0 / (k + g1[j] + (k - g1[j]) * e2);
      r = g2[j] * (1.0 - e2) * rf;
      t = 2.0 * k * e * rf;
    } else {
      r = g2[j] * od[j];
      t = 1.0 - g1[j] * od[j];
    }
    r = r < 1.0 ? r : 1.0;
    r = r > 0.0 ? r : 0.0;
    t = t < 1.0 - r ? t : 1.0 - r;
    t = t > 0.0 ? t : 0.0;
    ref[j] = r;
    trans[j] = t;
  }
}

void two_stream_reftrans_fp32(const float *restrict g1, const float *restrict g2,
                              const float *restrict od, float *restrict ref, float *restrict trans,
                              const int64_t NG, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < NG; j++) {
    float r, t;
    if (od[j] > 0.001f) {
      const float q = (g1[j] - g2[j]) * (g1[j] + g2[j]);
      const float k = sqrtf(q > 1e-12f ? q : 1e-12f);
      const float e = expf(-k * od[j]);
      const float e2 = e * e;
      const float rf = 1.0f / (k + g1[j] + (k - g1[j]) * e2);
      r = g2[j] * (1.0f - e2) * rf;
      t = 2.0f * k * e * rf;
    } else {
      r = g2[j] * od[j];
      t = 1.0f - g1[j] * od[j];
    }
    r = r < 1.0f ? r : 1.0f;
    r = r > 0.0f ? r : 0.0f;
    t = t < 1.0f - r ? t : 1.0f - r;
    t = t > 0.0f ? t : 0.0f;
    ref[j] = r;
    trans[j] = t;
  }
}
