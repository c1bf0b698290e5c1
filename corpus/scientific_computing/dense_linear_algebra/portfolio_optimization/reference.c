#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(portfolio_optimization)(const real *restrict cov, const real *restrict r,
                                          real *restrict ret, real *restrict risk,
                                          const real *restrict w, const int64_t N,
                                          uint8_t *restrict workspace,
                                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real quad = 0, mean = 0;
  for (int64_t i = 0; i < N; i++) {
    real row = 0; /* (cov w)_i */
    for (int64_t j = 0; j < N; j++) row += cov[i * N + j] * w[j];
    quad += w[i] * row;
    mean += w[i] * r[i];
  }
  risk[0] = sqrt(quad);
  ret[0] = mean;
}
