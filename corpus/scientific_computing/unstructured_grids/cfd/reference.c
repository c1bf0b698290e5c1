#include <stdint.h>

static void flux(const real rho, const real m0, const real m1, const real m2, const real E,
                 const real n0, const real n1, const real n2, const real gamma, real *restrict f) {
  const real msq = m0 * m0 + m1 * m1 + m2 * m2;
  const real p = (gamma - (real)1.0) * (E - (real)0.5 * msq / rho);
  const real mn = m0 * n0 + m1 * n1 + m2 * n2;
  const real vn = mn / rho;
  f[0] = mn;
  f[1] = vn * m0 + p * n0;
  f[2] = vn * m1 + p * n1;
  f[3] = vn * m2 + p * n2;
  f[4] = (E + p) * vn;
}

void HPCAB_KERNEL(cfd)(const real *restrict density, const real *restrict energy,
                       const real *restrict momentum, const int64_t *restrict neigh,
                       const real *restrict normals, real *restrict res_density,
                       real *restrict res_energy, real *restrict res_momentum, const real alpha,
                       const real gamma, const int64_t ncells, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real h = (real)0.5, ha = h * alpha;
  for (int64_t i = 0; i < ncells; i++) {
    real rd = (real)0.0, r0 = (real)0.0, r1 = (real)0.0, r2 = (real)0.0, re = (real)0.0;
    const real *mi = momentum + 3 * i;
    for (int64_t j = 0; j < 4; j++) {
      const int64_t k = neigh[4 * i + j];
      const real *n = normals + (4 * i + j) * 3;
      const real *mk = momentum + 3 * k;
      real fi[5], fn[5];
      flux(density[i], mi[0], mi[1], mi[2], energy[i], n[0], n[1], n[2], gamma, fi);
      flux(density[k], mk[0], mk[1], mk[2], energy[k], n[0], n[1], n[2], gamma, fn);
      rd += h * (fi[0] + fn[0]) - ha * (density[k] - density[i]);
      r0 += h * (fi[1] + fn[1]) - ha * (mk[0] - mi[0]);
      r1 += h * (fi[2] + fn[2]) - ha * (mk[1] - mi[1]);
      r2 += h * (fi[3] + fn[3]) - ha * (mk[2] - mi[2]);
      re += h * (fi[4] + fn[4]) - ha * (energy[k] - energy[i]);
    }
    res_density[i] = rd;
    res_momentum[3 * i] = r0;
    res_momentum[3 * i + 1] = r1;
    res_momentum[3 * i + 2] = r2;
    res_energy[i] = re;
  }
}
