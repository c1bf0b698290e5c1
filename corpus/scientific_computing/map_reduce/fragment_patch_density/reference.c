#include <stdint.h>

void HPCAB_KERNEL(fragment_patch_density)(const real *restrict alpha,
                                          const int64_t *restrict offsets,
                                          const real *restrict psi_frag, real *restrict rho,
                                          const int64_t Lb, const int64_t N, const int64_t k,
                                          const int64_t nfrag, uint8_t *restrict workspace,
                                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t p = 0; p < N * N * N; p++) rho[p] = (real)0.0;
  for (int64_t f = 0; f < nfrag; f++) {
    const real a = alpha[f];
    const real *pf = psi_frag + f * Lb * Lb * Lb * k;
    for (int64_t x = 0; x < Lb; x++) {
      const int64_t gx = (offsets[f * 3 + 0] + x) % N;
      for (int64_t y = 0; y < Lb; y++) {
        const int64_t gy = (offsets[f * 3 + 1] + y) % N;
        for (int64_t z = 0; z < Lb; z++) {
          const int64_t gz = (offsets[f * 3 + 2] + z) % N;
          const real *s = pf + ((x * Lb + y) * Lb + z) * k;
          real dens = (real)0.0;
          for (int64_t i = 0; i < k; i++) dens += s[i] * s[i];
          rho[(gx * N + gy) * N + gz] += a * dens;
        }
      }
    }
  }
}
