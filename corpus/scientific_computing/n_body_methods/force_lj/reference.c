#include <stdint.h>

/* Particle i sits at lattice site (i mod n, (i/n) mod n, i/n^2) * spacing + disp[i]. */
static void position_fp64(const double *restrict disp, const int64_t i, const int64_t n,
                          const double spacing, double *restrict p) {
  p[0] = (double)(i % n) * spacing + disp[3 * i];
  p[1] = (double)((i / n) % n) * spacing + disp[3 * i + 1];
  p[2] = (double)(i / (n * n)) * spacing + disp[3 * i + 2];
}

void force_lj_fp64(double *restrict F, const double *restrict disp, double *restrict energy,
                   const int64_t N, const double cutoff, const double epsilon, const double sigma,
                   const double spacing, uint8_t *restrict workspace,
                   const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t n = 1;
  while (n * n * n < N) n++;
  const double rc2 = cutoff * cutoff, sig2 = sigma * sigma;
  const double eps4 = 4.0 * epsilon, eps24 = 24.0 * epsilon;
  for (int64_t i = 0; i < N; i++) {
    double pi[3], pj[3];
    position_fp64(disp, i, n, spacing, pi);
    double fx = 0.0, fy = 0.0, fz = 0.0, e = 0.0;
    for (int64_t j = 0; j < N; j++) {
      if (j == i) continue;
      position_fp64(disp, j, n, spacing, pj);
      const double dx = pi[0] - pj[0], dy = pi[1] - pj[1], dz = pi[2] - pj[2];
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        const double sr2 = sig2 / r2;
        const double sr6 = sr2 * sr2 * sr2;
        const double f = eps24 * (2.0 * sr6 * sr6 - sr6) / r2;
        fx += f * dx;
        fy += f * dy;
        fz += f * dz;
        e += eps4 * (sr6 * sr6 - sr6);
      }
    }
    F[3 * i] = fx;
    F[3 * i + 1] = fy;
    F[3 * i + 2] = fz;
    energy[i] = 0.5 * e;
  }
}

static void position_fp32(const float *restrict disp, const int64_t i, const int64_t n,
                          const float spacing, float *restrict p) {
  p[0] = (float)(i % n) * spacing + disp[3 * i];
  p[1] = (float)((i / n) % n) * spacing + disp[3 * i + 1];
  p[2] = (float)(i / (n * n)) * spacing + disp[3 * i + 2];
}

void force_lj_fp32(float *restrict F, const float *restrict disp, float *restrict energy,
                   const int64_t N, const float cutoff, const float epsilon, const float sigma,
                   const float spacing, uint8_t *restrict workspace,
                   const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t n = 1;
  while (n * n * n < N) n++;
  const float rc2 = cutoff * cutoff, sig2 = sigma * sigma;
  const float eps4 = 4.0f * epsilon, eps24 = 24.0f * epsilon;
  for (int64_t i = 0; i < N; i++) {
    float pi[3], pj[3];
    position_fp32(disp, i, n, spacing, pi);
    float fx = 0.0f, fy = 0.0f, fz = 0.0f, e = 0.0f;
    for (int64_t j = 0; j < N; j++) {
      if (j == i) continue;
      position_fp32(disp, j, n, spacing, pj);
      const float dx = pi[0] - pj[0], dy = pi[1] - pj[1], dz = pi[2] - pj[2];
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        const float sr2 = sig2 / r2;
        const float sr6 = sr2 * sr2 * sr2;
        const float f = eps24 * (2.0f * sr6 * sr6 - sr6) / r2;
        fx += f * dx;
        fy += f * dy;
        fz += f * dz;
        e += eps4 * (sr6 * sr6 - sr6);
      }
    }
    F[3 * i] = fx;
    F[3 * i + 1] = fy;
    F[3 * i + 2] = fz;
    energy[i] = 0.5f * e;
  }
}
