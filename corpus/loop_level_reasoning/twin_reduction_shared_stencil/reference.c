#include <stdint.h>

void HPCAB_KERNEL(twin_reduction_shared_stencil)(
    real *restrict div_mass, real *restrict div_theta, const real *restrict gfac,
    const int64_t *restrict idx, const real *restrict mass_fl, const real *restrict theta_fl,
    const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t c = 0; c < N; c++) {
    const int64_t *e = idx + 3 * c;
    const real *g = gfac + 3 * c;
    div_mass[c] = mass_fl[e[0]] * g[0] + mass_fl[e[1]] * g[1] + mass_fl[e[2]] * g[2];
    div_theta[c] = theta_fl[e[0]] * g[0] + theta_fl[e[1]] * g[1] + theta_fl[e[2]] * g[2];
  }
}
