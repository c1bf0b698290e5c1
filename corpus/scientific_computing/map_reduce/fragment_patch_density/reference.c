#include <stdint.h>

void fragment_patch_density_fp64(const double *restrict alpha, const int64_t *restrict offsets,
                                 const double *restrict psi_frag, double *restrict rho,
                                 const int64_t Lb, const int64_t N, const int64_t k,
                                 const int64_t nfrag, uint8_t *restrict workspace,
                                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t p = 0; p < N * N * N; p++) rho[p] = 0.0;
  for (int64_t f = 0; f < nfrag; f++) {
    const double a = alpha[f];
    const double *pf = psi_frag + f * Lb * Lb * Lb * k;
    for (int64_t x = 0; x < Lb; x++) {
      const int64_t gx = (offsets[f * 3 + 0] + x) % N;
      for (int64_t y = 0; y < Lb; y++) {
        const int64_t gy = (offsets[f * 3 + 1] + y) % N;
        for (int64_t z = 0; z < Lb; z++) {
          const int64_t gz = (offsets[f * 3 + 2] + z) % N;
          const double *s = pf + ((x * Lb + y) * Lb + z) * k;
          double dens = 0.0;
          for (int64_t i = 0; i < k; i++) dens += s[i] * s[i];
          rho[(gx * N + gy) * N + gz] += a * dens;
        }
      }
    }
  }
}

void fragment_patch_density_fp32(const float *restrict alpha, const int64_t *restrict offsets,
                                 const float *restrict psi_frag, float *restrict rho,
                                 const int64_t Lb, const int64_t N, const int64_t k,
                                 const int64_t nfrag, uint8_t *restrict workspace,
                                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t p = 0; p < N * N * N; p++) rho[p] = 0.0f;
  for (int64_t f = 0; f < nfrag; f++) {
    const float a = alpha[f];
    const float *pf = psi_frag + f * Lb * Lb * Lb * k;
    for (int64_t x = 0; x < Lb; x++) {
      const int64_t gx = (offsets[f * 3 + 0] + x) % N;
      for (int64_t y = 0; y < Lb; y++) {
        const int64_t gy = (offsets[f * 3 + 1] + y) % N;
        for (int64_t z = 0; z < Lb; z++) {
          const int64_t gz = (offsets[f * 3 + 2] + z) % N;
          const float *s = pf + ((x * Lb + y) * Lb + z) * k;
          float dens = 0.0f;
          for (int64_t i = 0; i < k; i++) dens += s[i] * s[i];
          rho[(gx * N + gy) * N + gz] += a * dens;
        }
      }
    }
  }
}
