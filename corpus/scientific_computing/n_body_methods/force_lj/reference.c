#include <stdint.h>

/* Particle i sits at lattice site (i mod n, (i/n) mod n, i/n^2) * spacing + disp[i]. */
static void position(const real *restrict disp, const int64_t i, const int64_t n,
                          const real spacing, real *restrict p) {
  p[0] = (real)(i % n) * spacing + disp[3 * i];
  p[1] = (real)((i / n) % n) * spacing + disp[3 * i + 1];
  p[2] = (real)(i / (n * n)) * spacing + disp[3 * i + 2];
}

void HPCAB_KERNEL(force_lj)(real *restrict F, const real *restrict disp, real *restrict energy,
                            const int64_t N, const real cutoff, const real epsilon, const real sigma,
                            const real spacing, uint8_t *restrict workspace,
                            const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t n = 1;
  while (n * n * n < N) n++;
  const real rc2 = cutoff * cutoff, sig2 = sigma * sigma;
  const real eps4 = (real)4.0 * epsilon, eps24 = (real)24.0 * epsilon;
  for (int64_t i = 0; i < N; i++) {
    real pi[3], pj[3];
    position(disp, i, n, spacing, pi);
    real fx = (real)0.0, fy = (real)0.0, fz = (real)0.0, e = (real)0.0;
    for (int64_t j = 0; j < N; j++) {
      if (j == i) continue;
      position(disp, j, n, spacing, pj);
      const real dx = pi[0] - pj[0], dy = pi[1] - pj[1], dz = pi[2] - pj[2];
      const real r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        const real sr2 = sig2 / r2;
        const real sr6 = sr2 * sr2 * sr2;
        const real f = eps24 * ((real)2.0 * sr6 * sr6 - sr6) / r2;
        fx += f * dx;
        fy += f * dy;
        fz += f * dz;
        e += eps4 * (sr6 * sr6 - sr6);
      }
    }
    F[3 * i] = fx;
    F[3 * i + 1] = fy;
    F[3 * i + 2] = fz;
    energy[i] = (real)0.5 * e;
  }
}
