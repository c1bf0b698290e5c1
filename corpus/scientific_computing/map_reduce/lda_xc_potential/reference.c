#include <math.h>
#include <stdint.h>

/* Slater exchange and Perdew-Zunger correlation (Hartree units) */
#define LDA_AX 0.9847450218426965
#define PZ_GAMMA (-0.1423)
#define PZ_B1 1.0529
#define PZ_B2 0.3334
#define PZ_A 0.0311
#define PZ_B (-0.0480)
#define PZ_C 0.0020
#define PZ_D (-0.0116)
#define LDA_PI 3.14159265358979323846

void lda_xc_potential_fp64(double *restrict exc, const double *restrict rho, double *restrict vxc,
                           const int64_t N, const double dvol, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t npts = N * N * N;
  double esum = 0.0;
  for (int64_t p = 0; p < npts; p++) {
    const double n = rho[p] > 1.0e-12 ? rho[p] : 1.0e-12;
    const double rs = pow(3.0 / (4.0 * LDA_PI * n), 1.0 / 3.0);
    const double n13 = pow(n, 1.0 / 3.0);
    const double eps_x = -0.75 * LDA_AX * n13;
    const double v_x = -LDA_AX * n13;
    double eps_c, v_c;
    if (rs < 1.0) {
      const double lrs = log(rs);
      eps_c = PZ_A * lrs + PZ_B + PZ_C * rs * lrs + PZ_D * rs;
      v_c = PZ_A * lrs + (PZ_B - PZ_A / 3.0) + (2.0 / 3.0) * PZ_C * rs * lrs +
            ((2.0 * PZ_D - PZ_C) / 3.0) * rs;
    } else {
      const double srs = sqrt(rs);
      const double den = 1.0 + PZ_B1 * srs + PZ_B2 * rs;
      eps_c = PZ_GAMMA / den;
      v_c = eps_c * (1.0 + (7.0 / 6.0 * PZ_B1) * srs + (4.0 / 3.0 * PZ_B2) * rs) / den;
    }
    vxc[p] = v_x + v_c;
    esum += (eps_x + eps_c) * n;
  }
  exc[0] = dvol * esum;
}

void lda_xc_potential_fp32(float *restrict exc, const float *restrict rho, float *restrict vxc,
                           const int64_t N, const float dvol, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t npts = N * N * N;
  float esum = 0.0f;
  for (int64_t p = 0; p < npts; p++) {
    const float n = rho[p] > 1.0e-12f ? rho[p] : 1.0e-12f;
    const float rs = powf(3.0f / (4.0f * (float)LDA_PI * n), 1.0f / 3.0f);
    const float n13 = powf(n, 1.0f / 3.0f);
    const float eps_x = -0.75f * (float)LDA_AX * n13;
    const float v_x = -(float)LDA_AX * n13;
    float eps_c, v_c;
    if (rs < 1.0f) {
      const float lrs = logf(rs);
      eps_c = (float)PZ_A * lrs + (float)PZ_B + (float)PZ_C * rs * lrs + (float)PZ_D * rs;
      v_c = (float)PZ_A * lrs + (float)(PZ_B - PZ_A / 3.0) + (2.0f / 3.0f) * (float)PZ_C * rs * lrs +
            (float)((2.0 * PZ_D - PZ_C) / 3.0) * rs;
    } else {
      const float srs = sqrtf(rs);
      const float den = 1.0f + (float)PZ_B1 * srs + (float)PZ_B2 * rs;
      eps_c = (float)PZ_GAMMA / den;
      v_c = eps_c * (1.0f + (float)(7.0 / 6.0 * PZ_B1) * srs + (float)(4.0 / 3.0 * PZ_B2) * rs) / den;
    }
    vxc[p] = v_x + v_c;
    esum += (eps_x + eps_c) * n;
  }
  exc[0] = dvol * esum;
}
