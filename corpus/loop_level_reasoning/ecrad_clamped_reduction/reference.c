#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(ecrad_clamped_reduction)(const real *restrict d, real *restrict out,
                                           const real *restrict x, const real *restrict y,
                                           const int64_t N, uint8_t *restrict workspace,
                                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const real k = sqrt(fmax(x[i] * x[i] + y[i] * y[i], (real)1.0e-12));
    const real e = exp(-k * d[i]);
    const real clamped = e < (real)1.0 ? e : (real)1.0;
    out[i] = clamped > (real)0.0 ? clamped : (real)0.0;
  }
}
