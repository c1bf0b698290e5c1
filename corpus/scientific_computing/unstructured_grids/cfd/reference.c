#include <stdint.h>

static void flux_fp64(const double rho, const double m0, const double m1, const double m2,
                      const double E, const double n0, const double n1, const double n2,
                      const double gamma, double *restrict f) {
  const double msq = m0 * m0 + m1 * m1 + m2 * m2;
  const double p = (gamma - 1.0) * (E - 0.5 * msq / rho);
  const double mn = m0 * n0 + m1 * n1 + m2 * n2;
  const double vn = mn / rho;
  f[0] = mn;
  f[1] = vn * m0 + p * n0;
  f[2] = vn * m1 + p * n1;
  f[3] = vn * m2 + p * n2;
  f[4] = (E + p) * vn;
}

void cfd_fp64(const double *restrict density, const double *restrict energy,
              const double *restrict momentum, const int64_t *restrict neigh,
              const double *restrict normals, double *restrict res_density,
              double *restrict res_energy, double *restrict res_momentum, const double alpha,
              const double gamma, const int64_t ncells, uint8_t *restrict workspace,
              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double h = 0.5, ha = h * alpha;
  for (int64_t i = 0; i < ncells; i++) {
    double rd = 0.0, r0 = 0.0, r1 = 0.0, r2 = 0.0, re = 0.0;
    const double *mi = momentum + 3 * i;
    for (int64_t j = 0; j < 4; j++) {
      const int64_t k = neigh[4 * i + j];
      const double *n = normals + (4 * i + j) * 3;
      const double *mk = momentum + 3 * k;
      double fi[5], fn[5];
      flux_fp64(density[i], mi[0], mi[1], mi[2], energy[i], n[0], n[1], n[2], gamma, fi);
      flux_fp64(density[k], mk[0], mk[1], mk[2], energy[k], n[0], n[1], n[2], gamma, fn);
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

static void flux_fp32(const float rho, const float m0, const float m1, const float m2,
                      const float E, const float n0, const float n1, const float n2,
                      const float gamma, float *restrict f) {
  const float msq = m0 * m0 + m1 * m1 + m2 * m2;
  const float p = (gamma - 1.0f) * (E - 0.5f * msq / rho);
  const float mn = m0 * n0 + m1 * n1 + m2 * n2;
  const float vn = mn / rho;
  f[0] = mn;
  f[1] = vn * m0 + p * n0;
  f[2] = vn * m1 + p * n1;
  f[3] = vn * m2 + p * n2;
  f[4] = (E + p) * vn;
}

void cfd_fp32(const float *restrict density, const float *restrict energy,
              const float *restrict momentum, const int64_t *restrict neigh,
              const float *restrict normals, float *restrict res_density,
              float *restrict res_energy, float *restrict res_momentum, const float alpha,
              const float gamma, const int64_t ncells, uint8_t *restrict workspace,
              const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float h = 0.5f, ha = h * alpha;
  for (int64_t i = 0; i < ncells; i++) {
    float rd = 0.0f, r0 = 0.0f, r1 = 0.0f, r2 = 0.0f, re = 0.0f;
    const float *mi = momentum + 3 * i;
    for (int64_t j = 0; j < 4; j++) {
      const int64_t k = neigh[4 * i + j];
      const float *n = normals + (4 * i + j) * 3;
      const float *mk = momentum + 3 * k;
      float fi[5], fn[5];
      flux_fp32(density[i], mi[0], mi[1], mi[2], energy[i], n[0], n[1], n[2], gamma, fi);
      flux_fp32(density[k], mk[0], mk[1], mk[2], energy[k], n[0], n[1], n[2], gamma, fn);
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
