#include <stdint.h>

void HPCAB_KERNEL(durbin)(const real *restrict r, real *restrict y, const int64_t N,
                          uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  y[0] = -r[0];
  real beta = (real)1.0;
  real alpha = -r[0];
  for (int64_t k = 1; k < N; k++) {
    beta = ((real)1.0 - alpha * alpha) * beta;
    real sum = (real)0.0;
    for (int64_t i = 0; i < k; i++) sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    /* y[i] += alpha * y[k-1-i] for i < k, pairwise so that each pair reads the old values */
    for (int64_t i = 0, j = k - 1; i <= j; i++, j--) {
      const real yi = y[i];
      const real yj = y[j];
      y[i] = yi + alpha * yj;
      if (i != j) y[j] = yj + alpha * yi;
    }
    y[k] = alpha;
  }
}
