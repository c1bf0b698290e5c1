#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(two_stream_reftrans)(const real *restrict g1, const real *restrict g2,
                                       const real *restrict od, real *restrict ref,
                                       real *restrict trans, const int64_t NG,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 0; j < NG; j++) {
    real r, t;
    if (od[j] > (real)0.001) {
      const real q = (g1[j] - g2[j]) * (g1[j] + g2[j]);
      const real k = sqrt(q > (real)1e-12 ? q : (real)1e-12);
      const real e = exp(-k * od[j]);
      const real e2 = e * e;
      const real rf = (real)1.0 / (k + g1[j] + (k - g1[j]) * e2);
      r = g2[j] * ((real)1.0 - e2) * rf;
      t = (real)2.0 * k * e * rf;
    } else {
      r = g2[j] * od[j];
      t = (real)1.0 - g1[j] * od[j];
    }
    r = r < (real)1.0 ? r : (real)1.0;
    r = r > (real)0.0 ? r : (real)0.0;
    t = t < (real)1.0 - r ? t : (real)1.0 - r;
    t = t > (real)0.0 ? t : (real)0.0;
    ref[j] = r;
    trans[j] = t;
  }
}
