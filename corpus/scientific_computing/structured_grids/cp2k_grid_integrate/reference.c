#include <math.h>
#include <stdint.h>

/* Cartesian angular momenta up to 2 on each centre: 10 cosets, products up to l = 4,
   and at most 2 grid points either side of the product centre in each direction. */
#define GI_MAX_L 2
#define GI_MAX_LP 4
#define GI_NCO 10
#define GI_MAXR 2

static int64_t gi_coset(int64_t lx, int64_t ly, int64_t lz) {
  const int64_t l = lx + ly + lz;
  return l * (l + 1) * (l + 2) / 6 + (l - lx) * (l - lx + 1) / 2 + lz;
}

static int64_t gi_wrap(int64_t i, int64_t n) { return ((i % n) + n) % n; }

void HPCAB_KERNEL(cp2k_grid_integrate)(const real *restrict dh, const real *restrict grid,
                                       real *restrict hab, const int32_t *restrict la_max,
                                       const int32_t *restrict la_min, const int32_t *restrict lb_max,
                                       const int32_t *restrict lb_min, const real *restrict ra,
                                       const real *restrict rab, const real *restrict radius,
                                       const real *restrict zeta, const real *restrict zetb,
                                       const int64_t npts, const int64_t num_tasks,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real dh_inv[3];
  for (int d = 0; d < 3; d++) dh_inv[d] = (real)1.0 / dh[d];
  for (int64_t t = 0; t < num_tasks; t++) {
    const int64_t lamax = la_max[t], lbmax = lb_max[t], lp = lamax + lbmax;
    real pol[3][GI_MAX_LP + 1][2 * GI_MAXR + 1] = {{{0}}};
    real alpha[3][GI_MAX_L + 1][GI_MAX_L + 1][GI_MAX_LP + 1] = {{{{0}}}};
    real cxyz[GI_MAX_LP + 1][GI_MAX_LP + 1][GI_MAX_LP + 1] = {{{0}}};
    real cab[GI_NCO][GI_NCO] = {{0}};
    const real zetp = zeta[t] + zetb[t];
    const real f = zetb[t] / zetp;
    const real *rabt = rab + 3 * t, *rat = ra + 3 * t;
    const real rab2 = rabt[0] * rabt[0] + rabt[1] * rabt[1] + rabt[2] * rabt[2];
    const real prefactor = exp(-zeta[t] * f * rab2);
    real rp[3], rb[3], disp[3][2 * GI_MAXR + 1];
    int64_t center[3], span[3];
    /* product centre, its grid cell, the cube's half-width, and the 1-D polynomials
       pol[d][l][i] = exp(-zetp r^2) r^l at displacement r of grid point center+i-2 */
    for (int d = 0; d < 3; d++) {
      rp[d] = rat[d] + f * rabt[d];
      rb[d] = rat[d] + rabt[d];
      center[d] = (int64_t)floor(dh_inv[d] * rp[d]);
      span[d] = (int64_t)(radius[t] / dh[d]);
      if ((real)span[d] * dh[d] < radius[t]) span[d] += 1;
      for (int64_t i = -span[d]; i <= span[d]; i++) {
        const real r = (real)(center[d] + i) * dh[d] - rp[d];
        disp[d][i + GI_MAXR] = r;
        real p = exp(-zetp * r * r);
        for (int64_t l = 0; l <= lp; l++) {
          pol[d][l][i + GI_MAXR] = p;
          p *= r;
        }
      }
    }
    /* integrate the grid against the polynomials over the points inside the sphere */
    const real rad2 = radius[t] * radius[t];
    for (int64_t k = -span[2]; k <= span[2]; k++) {
      const int64_t kg = gi_wrap(center[2] + k, npts);
      const real dz = disp[2][k + GI_MAXR];
      for (int64_t j = -span[1]; j <= span[1]; j++) {
        const int64_t jg = gi_wrap(center[1] + j, npts);
        const real dy = disp[1][j + GI_MAXR];
        for (int64_t i = -span[0]; i <= span[0]; i++) {
          const int64_t ig = gi_wrap(center[0] + i, npts);
          const real dx = disp[0][i + GI_MAXR];
          if (dx * dx + dy * dy + dz * dz > rad2) continue;
          const real g = grid[(kg * npts + jg) * npts + ig];
          for (int64_t lz = 0; lz <= lp; lz++) {
            const real gz = g * pol[2][lz][k + GI_MAXR];
            for (int64_t ly = 0; ly <= lp - lz; ly++) {
              const real gyz = gz * pol[1][ly][j + GI_MAXR];
              for (int64_t lx = 0; lx <= lp - lz - ly; lx++)
                cxyz[lz][ly][lx] += gyz * pol[0][lx][i + GI_MAXR];
            }
          }
        }
      }
    }
    /* alpha[d][lxb][lxa][l]: coefficients of (x-A)^lxa (x-B)^lxb in powers (x-P)^l */
    for (int d = 0; d < 3; d++) {
      const real drpa = rp[d] - rat[d], drpb = rp[d] - rb[d];
      for (int64_t lxa = 0; lxa <= lamax; lxa++)
        for (int64_t lxb = 0; lxb <= lbmax; lxb++) {
          real bin_a = (real)1.0, pa = (real)1.0;
          for (int64_t ka = 0; ka <= lxa; ka++) {
            real bin_b = (real)1.0, pb = (real)1.0;
            for (int64_t kb = 0; kb <= lxb; kb++) {
              alpha[d][lxb][lxa][lxa - ka + lxb - kb] += bin_a * bin_b * pa * pb;
              bin_b = bin_b * (real)(lxb - kb) / (real)(kb + 1);
              pb *= drpb;
            }
            bin_a = bin_a * (real)(lxa - ka) / (real)(ka + 1);
            pa *= drpa;
          }
        }
    }
    /* transform the polynomial moments into the Cartesian Gaussian pair block */
    for (int64_t lzb = 0; lzb <= lbmax; lzb++)
      for (int64_t lza = 0; lza <= lamax; lza++)
        for (int64_t lyb = 0; lyb <= lbmax - lzb; lyb++)
          for (int64_t lya = 0; lya <= lamax - lza; lya++) {
            int64_t lxb0 = lb_min[t] - lzb - lyb, lxa0 = la_min[t] - lza - lya;
            if (lxb0 < 0) lxb0 = 0;
            if (lxa0 < 0) lxa0 = 0;
            for (int64_t lxb = lxb0; lxb <= lbmax - lzb - lyb; lxb++)
              for (int64_t lxa = lxa0; lxa <= lamax - lza - lya; lxa++) {
                const int64_t ico = gi_coset(lxa, lya, lza), jco = gi_coset(lxb, lyb, lzb);
                real s = (real)0.0;
                for (int64_t lz = 0; lz <= lza + lzb; lz++)
                  for (int64_t ly = 0; ly <= lya + lyb; ly++)
                    for (int64_t lx = 0; lx <= lxa + lxb; lx++)
                      s += alpha[0][lxb][lxa][lx] * alpha[1][lyb][lya][ly] * alpha[2][lzb][lza][lz] *
                           cxyz[lz][ly][lx];
                cab[jco][ico] += prefactor * s;
              }
          }
    real *habt = hab + t * GI_NCO * GI_NCO;
    for (int64_t la = la_min[t]; la <= lamax; la++)
      for (int64_t ax = 0; ax <= la; ax++)
        for (int64_t ay = 0; ay <= la - ax; ay++) {
          const int64_t ico = gi_coset(ax, ay, la - ax - ay);
          for (int64_t lb = lb_min[t]; lb <= lbmax; lb++)
            for (int64_t bx = 0; bx <= lb; bx++)
              for (int64_t by = 0; by <= lb - bx; by++) {
                const int64_t jco = gi_coset(bx, by, lb - bx - by);
                habt[jco * GI_NCO + ico] += cab[jco][ico];
              }
        }
  }
}
