#include <stdint.h>

void HPCAB_KERNEL(vertical_flux_prefix_scan)(const real *restrict fall, real *restrict flux,
                                             const int64_t K, const int64_t N,
                                             uint8_t *restrict workspace,
                                             const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    flux[i * K] = fall[i * K];
    for (int64_t k = 1; k < K; k++)
      flux[i * K + k] = flux[i * K + k - 1] * (real)0.9 + fall[i * K + k];
  }
}
