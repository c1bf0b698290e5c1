#include <stdint.h>

void twin_reduction_shared_stencil_fp64(double *restrict div_mass, double *restrict div_theta,
                                        const double *restrict gfac, const int64_t *restrict idx,
                                        const double *restrict mass_fl,
                                        const double *restrict theta_fl, const int64_t N,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t c = 0; c < N; c++) {
    const int64_t *e = idx + 3 * c;
    const double *g = gfac + 3 * c;
    div_mass[c] = mass_fl[e[0]] * g[0] + mass_fl[e[1]] * g[1] + mass_fl[e[2]] * g[2];
    div_theta[c] = theta_fl[e[0]] * g[0] + theta_fl[e[1]] * g[1] + theta_fl[e[2]] * g[2];
  }
}

void twin_reduction_shared_stencil_fp32(float *restrict div_mass, float *restrict div_theta,
                                        const float *restrict gfac, const int64_t *restrict idx,
                                        const float *restrict mass_fl,
                                        const float *restrict theta_fl, const int64_t N,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t c = 0; c < N; c++) {
    const int64_t *e = idx + 3 * c;
    const float *g = gfac + 3 * c;
    div_mass[c] = mass_fl[e[0]] * g[0] + mass_fl[e[1]] * g[1] + mass_fl[e[2]] * g[2];
    div_theta[c] = theta_fl[e[0]] * g[0] + theta_fl[e[1]] * g[1] + theta_fl[e[2]] * g[2];
  }
}
