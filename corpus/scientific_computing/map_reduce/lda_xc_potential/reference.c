#include <math.h>
#include <stdint.h>

/* Slater exchange and Perdew-Zunger correlation (Hartree units) */
#define LDA_AX (real)0.9847450218426965
#define PZ_GAMMA (-(real)0.1423)
#define PZ_B1 (real)1.0529
#define PZ_B2 (real)0.3334
#define PZ_A (real)0.0311
#define PZ_B (-(real)0.0480)
#define PZ_C (real)0.0020
#define PZ_D (-(real)0.0116)
#define LDA_PI (real)3.14159265358979323846

void HPCAB_KERNEL(lda_xc_potential)(real *restrict exc, const real *restrict rho, real *restrict vxc,
                                    const int64_t N, const real dvol, uint8_t *restrict workspace,
                                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t npts = N * N * N;
  real esum = (real)0.0;
  for (int64_t p = 0; p < npts; p++) {
    const real n = rho[p] > (real)1.0e-12 ? rho[p] : (real)1.0e-12;
    const real rs = pow((real)3.0 / ((real)4.0 * LDA_PI * n), (real)1.0 / (real)3.0);
    const real n13 = pow(n, (real)1.0 / (real)3.0);
    const real eps_x = -(real)0.75 * LDA_AX * n13;
    const real v_x = -LDA_AX * n13;
    real eps_c, v_c;
    if (rs < (real)1.0) {
      const real lrs = log(rs);
      eps_c = PZ_A * lrs + PZ_B + PZ_C * rs * lrs + PZ_D * rs;
      v_c = PZ_A * lrs + (PZ_B - PZ_A / (real)3.0) + ((real)2.0 / (real)3.0) * PZ_C * rs * lrs +
            (((real)2.0 * PZ_D - PZ_C) / (real)3.0) * rs;
    } else {
      const real srs = sqrt(rs);
      const real den = (real)1.0 + PZ_B1 * srs + PZ_B2 * rs;
      eps_c = PZ_GAMMA / den;
      v_c = eps_c * ((real)1.0 + ((real)7.0 / (real)6.0 * PZ_B1) * srs + ((real)4.0 / (real)3.0 * PZ_B2) * rs) / den;
    }
    vxc[p] = v_x + v_c;
    esum += (eps_x + eps_c) * n;
  }
  exc[0] = dvol * esum;
}
