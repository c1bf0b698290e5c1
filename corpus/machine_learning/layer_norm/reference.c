#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(layer_norm)(const real *restrict beta, const real *restrict gamma,
                              real *restrict out, const real *restrict x, const int64_t D,
                              const int64_t N, const real eps, uint8_t *restrict workspace,
                              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const real *restrict xi = x + i * D;
    real *restrict oi = out + i * D;
    real sum = (real)0.0;
    for (int64_t j = 0; j < D; j++) sum += xi[j];
    const real mean = sum / (real)D;
    real sq = (real)0.0;
    for (int64_t j = 0; j < D; j++) {
      const real d = xi[j] - mean;
      sq += d * d;
    }
    const real std = sqrt(sq / (real)D + eps);
    for (int64_t j = 0; j < D; j++) oi[j] = (xi[j] - mean) / std * gamma[j] + beta[j];
  }
}
