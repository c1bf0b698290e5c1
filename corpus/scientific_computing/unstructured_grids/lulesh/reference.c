#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

/* Flanagan-Belytschko hourglass base vectors G[k][m] (node k, mode m) */
static const real G[8][4] = {{1, 1, 1, -1},  {1, -1, -1, 1},  {-1, -1, 1, -1}, {-1, 1, -1, 1},
                               {-1, -1, 1, 1}, {-1, 1, -1, -1}, {1, 1, 1, 1},    {1, -1, -1, -1}};
static const int VPERM[8][6] = {{1, 2, 3, 4, 5, 7}, {2, 3, 0, 5, 6, 4}, {3, 0, 1, 6, 7, 5},
                                {0, 1, 2, 7, 4, 6}, {7, 6, 5, 0, 3, 1}, {4, 7, 6, 1, 0, 2},
                                {5, 4, 7, 2, 1, 3}, {6, 5, 4, 3, 2, 0}};
static const int NFACES[6][4] = {{0, 1, 2, 3}, {0, 4, 5, 1}, {1, 5, 6, 2},
                                 {2, 6, 7, 3}, {3, 7, 4, 0}, {4, 7, 6, 5}};
static const int CFACES[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                 {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
static const int XI[2][4] = {{1, 2, 6, 5}, {0, 3, 7, 4}};
static const int ETA[2][4] = {{3, 2, 6, 7}, {0, 1, 5, 4}};
static const int ZETA[2][4] = {{4, 5, 6, 7}, {0, 1, 2, 3}};

#define PTINY (real)1.0e-36
#define TINY1 (real)0.111111e-36
#define TINY3 (real)0.333333e-18
#define CUT (real)1.0e-7
#define V_CUT (real)1.0e-10
#define EMIN (-(real)1.0e15)
#define EOSVMIN (real)1.0e-9
#define EOSVMAX (real)1.0e9
#define STOPTIME (real)1.0e-2
#define DTMAX (real)1.0e-2

static real tp(real x1, real y1, real z1, real x2, real y2, real z2, real x3,
                 real y3, real z3) {
  return x1 * (y2 * z3 - z2 * y3) + x2 * (z1 * y3 - y1 * z3) + x3 * (y1 * z2 - z1 * y2);
}

static real volume8(const real *x, const real *y, const real *z) {
#define D(a, i, j) (a[i] - a[j])
  const real v = tp(D(x, 3, 1) + D(x, 7, 2), D(x, 6, 3), D(x, 2, 0), D(y, 3, 1) + D(y, 7, 2),
                      D(y, 6, 3), D(y, 2, 0), D(z, 3, 1) + D(z, 7, 2), D(z, 6, 3), D(z, 2, 0)) +
                   tp(D(x, 4, 3) + D(x, 5, 7), D(x, 6, 4), D(x, 7, 0), D(y, 4, 3) + D(y, 5, 7),
                      D(y, 6, 4), D(y, 7, 0), D(z, 4, 3) + D(z, 5, 7), D(z, 6, 4), D(z, 7, 0)) +
                   tp(D(x, 1, 4) + D(x, 2, 5), D(x, 6, 1), D(x, 5, 0), D(y, 1, 4) + D(y, 2, 5),
                      D(y, 6, 1), D(y, 5, 0), D(z, 1, 4) + D(z, 2, 5), D(z, 6, 1), D(z, 5, 0));
#undef D
  return v * ((real)1.0 / (real)12.0);
}

static real char_length(const real *x, const real *y, const real *z, const real vol) {
  real charl = (real)0.0;
  for (int f = 0; f < 6; f++) {
    const int a = CFACES[f][0], b = CFACES[f][1], c = CFACES[f][2], d = CFACES[f][3];
    const real fx = (x[c] - x[a]) - (x[d] - x[b]), fy = (y[c] - y[a]) - (y[d] - y[b]),
                 fz = (z[c] - z[a]) - (z[d] - z[b]);
    const real gx = (x[c] - x[a]) + (x[d] - x[b]), gy = (y[c] - y[a]) + (y[d] - y[b]),
                 gz = (z[c] - z[a]) + (z[d] - z[b]);
    const real fg = fx * gx + fy * gy + fz * gz;
    const real area = (fx * fx + fy * fy + fz * fz) * (gx * gx + gy * gy + gz * gz) - fg * fg;
    charl = area > charl ? area : charl;
  }
  return (real)4.0 * vol / sqrt(charl);
}

static real shape_derivs(const real *x, const real *y, const real *z, real b[8][3]) {
  real fj[3][3]; /* [coordinate][xi, eta, zeta] */
  const real *c[3] = {x, y, z};
  for (int d = 0; d < 3; d++) {
    const real *a = c[d];
    fj[d][0] = (real)0.125 * ((a[6] - a[0]) + (a[5] - a[3]) - (a[7] - a[1]) - (a[4] - a[2]));
    fj[d][1] = (real)0.125 * ((a[6] - a[0]) - (a[5] - a[3]) + (a[7] - a[1]) - (a[4] - a[2]));
    fj[d][2] = (real)0.125 * ((a[6] - a[0]) + (a[5] - a[3]) + (a[7] - a[1]) + (a[4] - a[2]));
  }
  const real xxi = fj[0][0], xet = fj[0][1], xze = fj[0][2];
  const real yxi = fj[1][0], yet = fj[1][1], yze = fj[1][2];
  const real zxi = fj[2][0], zet = fj[2][1], zze = fj[2][2];
  real cj[3][3];
  cj[0][0] = (yet * zze) - (zet * yze);
  cj[0][1] = -(yxi * zze) + (zxi * yze);
  cj[0][2] = (yxi * zet) - (zxi * yet);
  cj[1][0] = -(xet * zze) + (zet * xze);
  cj[1][1] = (xxi * zze) - (zxi * xze);
  cj[1][2] = -(xxi * zet) + (zxi * xet);
  cj[2][0] = (xet * yze) - (yet * xze);
  cj[2][1] = -(xxi * yze) + (yxi * xze);
  cj[2][2] = (xxi * yet) - (yxi * xet);
  for (int d = 0; d < 3; d++) {
    const real ca = cj[d][0], cb = cj[d][1], cc = cj[d][2];
    b[0][d] = -ca - cb - cc;
    b[1][d] = ca - cb - cc;
    b[2][d] = ca + cb - cc;
    b[3][d] = -ca + cb - cc;
    b[4][d] = -b[2][d];
    b[5][d] = -b[3][d];
    b[6][d] = -b[0][d];
    b[7][d] = -b[1][d];
  }
  return (real)8.0 * (xet * cj[0][1] + yet * cj[1][1] + zet * cj[2][1]);
}

static void node_normals(const real *x, const real *y, const real *z, real pf[8][3]) {
  for (int k = 0; k < 8; k++) pf[k][0] = pf[k][1] = pf[k][2] = (real)0.0;
  for (int f = 0; f < 6; f++) {
    const int n0 = NFACES[f][0], n1 = NFACES[f][1], n2 = NFACES[f][2], n3 = NFACES[f][3];
    const real bx0 = (real)0.5 * (x[n3] + x[n2] - x[n1] - x[n0]);
    const real by0 = (real)0.5 * (y[n3] + y[n2] - y[n1] - y[n0]);
    const real bz0 = (real)0.5 * (z[n3] + z[n2] - z[n1] - z[n0]);
    const real bx1 = (real)0.5 * (x[n2] + x[n1] - x[n3] - x[n0]);
    const real by1 = (real)0.5 * (y[n2] + y[n1] - y[n3] - y[n0]);
    const real bz1 = (real)0.5 * (z[n2] + z[n1] - z[n3] - z[n0]);
    const real ax = (real)0.25 * (by0 * bz1 - bz0 * by1);
    const real ay = (real)0.25 * (bz0 * bx1 - bx0 * bz1);
    const real az = (real)0.25 * (bx0 * by1 - by0 * bx1);
    for (int t = 0; t < 4; t++) {
      pf[NFACES[f][t]][0] += ax;
      pf[NFACES[f][t]][1] += ay;
      pf[NFACES[f][t]][2] += az;
    }
  }
}

static void volume_derivs(const real *x, const real *y, const real *z, real *dvdx,
                          real *dvdy, real *dvdz) {
  for (int k = 0; k < 8; k++) {
    const int *P = VPERM[k];
    const real x0 = x[P[0]], x1 = x[P[1]], x2 = x[P[2]], x3 = x[P[3]], x4 = x[P[4]], x5 = x[P[5]];
    const real y0 = y[P[0]], y1 = y[P[1]], y2 = y[P[2]], y3 = y[P[3]], y4 = y[P[4]], y5 = y[P[5]];
    const real z0 = z[P[0]], z1 = z[P[1]], z2 = z[P[2]], z3 = z[P[3]], z4 = z[P[4]], z5 = z[P[5]];
    dvdx[k] = ((y1 + y2) * (z0 + z1) - (y0 + y1) * (z1 + z2) + (y0 + y4) * (z3 + z4) -
               (y3 + y4) * (z0 + z4) - (y2 + y5) * (z3 + z5) + (y3 + y5) * (z2 + z5)) *
              ((real)1.0 / (real)12.0);
    dvdy[k] = (-(x1 + x2) * (z0 + z1) + (x0 + x1) * (z1 + z2) - (x0 + x4) * (z3 + z4) +
               (x3 + x4) * (z0 + z4) + (x2 + x5) * (z3 + z5) - (x3 + x5) * (z2 + z5)) *
              ((real)1.0 / (real)12.0);
    dvdz[k] = (-(y1 + y2) * (x0 + x1) + (y0 + y1) * (x1 + x2) - (y0 + y4) * (x3 + x4) +
               (y3 + y4) * (x0 + x4) + (y2 + y5) * (x3 + x5) - (y3 + y5) * (x2 + x5)) *
              ((real)1.0 / (real)12.0);
  }
}

static real grad4(const real *a, const int dir[2][4]) {
  return (real)0.25 * ((a[dir[0][0]] + a[dir[0][1]] + a[dir[0][2]] + a[dir[0][3]]) -
                 (a[dir[1][0]] + a[dir[1][1]] + a[dir[1][2]] + a[dir[1][3]]));
}

static real pressure(const real e, const real compression, const real vnewc,
                       real *bvc) {
  *bvc = ((real)2.0 / (real)3.0) * (compression + (real)1.0);
  real p = *bvc * e;
  if (fabs(p) < CUT) p = (real)0.0;
  if (vnewc >= EOSVMAX) p = (real)0.0;
  if (p < (real)0.0) p = (real)0.0;
  return p;
}

static real sound(const real e, const real p, const real bvc, const real vv) {
  const real s = (((real)2.0 / (real)3.0) * e + vv * vv * bvc * p) / (real)1.0;
  return s <= TINY1 ? TINY3 : sqrt(s);
}

static real phi_limit(real dm, real dp, const real norm) {
  dm = dm * norm;
  dp = dp * norm;
  real phi = (real)0.5 * (dm + dp);
  dm = dm * (real)2.0;
  dp = dp * (real)2.0;
  if (dm < phi) phi = dm;
  if (dp < phi) phi = dp;
  if (phi < (real)0.0) phi = (real)0.0;
  if (phi > (real)1.0) phi = (real)1.0;
  return phi;
}

void HPCAB_KERNEL(lulesh)(real *restrict e, real *restrict p, real *restrict q, real *restrict v,
                          const int64_t edge_elems, const int64_t nsteps, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t E = edge_elems, N = E + 1, ne = E * E * E, nn = N * N * N;
  real *restrict x = hpcab_scratch(nn, sizeof(real));
  real *restrict y = hpcab_scratch(nn, sizeof(real));
  real *restrict z = hpcab_scratch(nn, sizeof(real));
  real *restrict xd = hpcab_scratch(nn, sizeof(real));
  real *restrict yd = hpcab_scratch(nn, sizeof(real));
  real *restrict zd = hpcab_scratch(nn, sizeof(real));
  real *restrict fx = hpcab_scratch(nn, sizeof(real));
  real *restrict fy = hpcab_scratch(nn, sizeof(real));
  real *restrict fz = hpcab_scratch(nn, sizeof(real));
  real *restrict nodal_mass = hpcab_scratch(nn, sizeof(real));
  int64_t *restrict nodes = hpcab_scratch(8 * ne, sizeof(int64_t));
  real *restrict volo = hpcab_scratch(ne, sizeof(real));
  real *restrict ss = hpcab_scratch(ne, sizeof(real));
  real *restrict vnew = hpcab_scratch(ne, sizeof(real));
  real *restrict arealg = hpcab_scratch(ne, sizeof(real));
  real *restrict vdov = hpcab_scratch(ne, sizeof(real));
  real *restrict delvg = hpcab_scratch(3 * ne, sizeof(real));
  real *restrict delx = hpcab_scratch(3 * ne, sizeof(real));

  for (int64_t pl = 0; pl < N; pl++)
    for (int64_t rw = 0; rw < N; rw++)
      for (int64_t cl = 0; cl < N; cl++) {
        const int64_t n = (pl * N + rw) * N + cl;
        x[n] = (real)1.125 * (real)cl / (real)E;
        y[n] = (real)1.125 * (real)rw / (real)E;
        z[n] = (real)1.125 * (real)pl / (real)E;
      }
  for (int64_t pl = 0; pl < E; pl++)
    for (int64_t rw = 0; rw < E; rw++)
      for (int64_t cl = 0; cl < E; cl++) {
        const int64_t i = (pl * E + rw) * E + cl, n0 = (pl * N + rw) * N + cl;
        int64_t *nd = nodes + 8 * i;
        nd[0] = n0;
        nd[1] = n0 + 1;
        nd[2] = n0 + N + 1;
        nd[3] = n0 + N;
        nd[4] = n0 + N * N;
        nd[5] = n0 + N * N + 1;
        nd[6] = n0 + N * N + N + 1;
        nd[7] = n0 + N * N + N;
      }
  for (int64_t i = 0; i < ne; i++) {
    real xl[8], yl[8], zl[8];
    for (int k = 0; k < 8; k++) {
      xl[k] = x[nodes[8 * i + k]];
      yl[k] = y[nodes[8 * i + k]];
      zl[k] = z[nodes[8 * i + k]];
    }
    volo[i] = volume8(xl, yl, zl);
    for (int k = 0; k < 8; k++) nodal_mass[nodes[8 * i + k]] += volo[i] / (real)8.0;
  }
  /* elem_mass = volo (density 1) */
  const real *elem_mass = volo;

  real dt = (real)1.0e-7, time = (real)0.0, dtcourant = (real)1.0e20, dthydro = (real)1.0e20;
  for (int64_t cycle = 0; cycle < nsteps; cycle++) {
    real targetdt = STOPTIME - time;
    if (cycle != 0) {
      const real olddt = dt;
      real newdt = (real)1.0e20;
      if (dtcourant < newdt) newdt = dtcourant / (real)2.0;
      if (dthydro < newdt) newdt = dthydro * ((real)2.0 / (real)3.0);
      const real ratio = newdt / olddt;
      if (ratio >= (real)1.0) {
        if (ratio < (real)1.1)
          newdt = olddt;
        else if (ratio > (real)1.2)
          newdt = olddt * (real)1.2;
      }
      if (newdt > DTMAX) newdt = DTMAX;
      dt = newdt;
    }
    if (targetdt > dt && targetdt < (real)4.0 * dt / (real)3.0) targetdt = (real)2.0 * dt / (real)3.0;
    if (targetdt < dt) dt = targetdt;
    time = time + dt;

    /* nodal forces: stress, then hourglass */
    for (int64_t n = 0; n < nn; n++) fx[n] = fy[n] = fz[n] = (real)0.0;
    for (int64_t i = 0; i < ne; i++) {
      real xl[8], yl[8], zl[8], pf[8][3];
      const int64_t *nd = nodes + 8 * i;
      for (int k = 0; k < 8; k++) {
        xl[k] = x[nd[k]];
        yl[k] = y[nd[k]];
        zl[k] = z[nd[k]];
      }
      node_normals(xl, yl, zl, pf);
      const real sig = -p[i] - q[i];
      for (int k = 0; k < 8; k++) {
        fx[nd[k]] += -(sig * pf[k][0]);
        fy[nd[k]] += -(sig * pf[k][1]);
        fz[nd[k]] += -(sig * pf[k][2]);
      }
    }
    for (int64_t i = 0; i < ne; i++) {
      real xl[8], yl[8], zl[8], dvdx[8], dvdy[8], dvdz[8], hg[4][8];
      const int64_t *nd = nodes + 8 * i;
      for (int k = 0; k < 8; k++) {
        xl[k] = x[nd[k]];
        yl[k] = y[nd[k]];
        zl[k] = z[nd[k]];
      }
      volume_derivs(xl, yl, zl, dvdx, dvdy, dvdz);
      const real determ = volo[i] * v[i];
      const real volinv = (real)1.0 / determ;
      for (int m = 0; m < 4; m++) {
        real hx = (real)0.0, hy = (real)0.0, hz = (real)0.0;
        for (int k = 0; k < 8; k++) {
          hx += xl[k] * G[k][m];
          hy += yl[k] * G[k][m];
          hz += zl[k] * G[k][m];
        }
        for (int k = 0; k < 8; k++)
          hg[m][k] = G[k][m] - volinv * ((hx * dvdx[k] + hy * dvdy[k]) + hz * dvdz[k]);
      }
      const real coef = -(real)3.0 * (real)0.01 * ss[i] * elem_mass[i] / cbrt(determ);
      real *const fs[3] = {fx, fy, fz};
      const real *const vs[3] = {xd, yd, zd};
      for (int d = 0; d < 3; d++) {
        real vl[8], h[4];
        for (int k = 0; k < 8; k++) vl[k] = vs[d][nd[k]];
        for (int m = 0; m < 4; m++) {
          h[m] = (real)0.0;
          for (int k = 0; k < 8; k++) h[m] += hg[m][k] * vl[k];
        }
        for (int k = 0; k < 8; k++) {
          real acc = (real)0.0;
          for (int m = 0; m < 4; m++) acc += h[m] * hg[m][k];
          fs[d][nd[k]] += coef * acc;
        }
      }
    }
    for (int64_t pl = 0; pl < N; pl++)
      for (int64_t rw = 0; rw < N; rw++)
        for (int64_t cl = 0; cl < N; cl++) {
          const int64_t n = (pl * N + rw) * N + cl;
          const real xdd = cl == 0 ? (real)0.0 : fx[n] / nodal_mass[n];
          const real ydd = rw == 0 ? (real)0.0 : fy[n] / nodal_mass[n];
          const real zdd = pl == 0 ? (real)0.0 : fz[n] / nodal_mass[n];
          real t = xd[n] + xdd * dt;
          xd[n] = fabs(t) < CUT ? (real)0.0 : t;
          t = yd[n] + ydd * dt;
          yd[n] = fabs(t) < CUT ? (real)0.0 : t;
          t = zd[n] + zdd * dt;
          zd[n] = fabs(t) < CUT ? (real)0.0 : t;
          x[n] = x[n] + xd[n] * dt;
          y[n] = y[n] + yd[n] * dt;
          z[n] = z[n] + zd[n] * dt;
        }

    /* elements: kinematics and monotonic-Q gradients */
    for (int64_t i = 0; i < ne; i++) {
      real xl[8], yl[8], zl[8], xv[8], yv[8], zv[8], xh[8], yh[8], zh[8], b[8][3];
      const int64_t *nd = nodes + 8 * i;
      for (int k = 0; k < 8; k++) {
        xl[k] = x[nd[k]];
        yl[k] = y[nd[k]];
        zl[k] = z[nd[k]];
        xv[k] = xd[nd[k]];
        yv[k] = yd[nd[k]];
        zv[k] = zd[nd[k]];
      }
      const real vol = volume8(xl, yl, zl);
      vnew[i] = vol / volo[i];
      arealg[i] = char_length(xl, yl, zl, vol);
      const real dt2 = (real)0.5 * dt;
      for (int k = 0; k < 8; k++) {
        xh[k] = xl[k] - dt2 * xv[k];
        yh[k] = yl[k] - dt2 * yv[k];
        zh[k] = zl[k] - dt2 * zv[k];
      }
      const real inv = (real)1.0 / shape_derivs(xh, yh, zh, b);
#define DOT(d, w)                                                                \
  (b[0][d] * (w[0] - w[6]) + b[1][d] * (w[1] - w[7]) + b[2][d] * (w[2] - w[4]) + \
   b[3][d] * (w[3] - w[5]))
      vdov[i] = inv * DOT(0, xv) + inv * DOT(1, yv) + inv * DOT(2, zv);
#undef DOT
      const real vv = volo[i] * vnew[i];
      const real norm = (real)1.0 / (vv + PTINY);
      const real dxi = grad4(xl, XI), dyi = grad4(yl, XI), dzi = grad4(zl, XI);
      const real dxj = grad4(xl, ETA), dyj = grad4(yl, ETA), dzj = grad4(zl, ETA);
      const real dxk = grad4(xl, ZETA), dyk = grad4(yl, ZETA), dzk = grad4(zl, ZETA);
      /* (u, v, w) = (dy, dz, dx) of the two spanning directions of each axis */
      const real U[3][2][3] = {{{dyj, dzj, dxj}, {dyk, dzk, dxk}},
                                 {{dyk, dzk, dxk}, {dyi, dzi, dxi}},
                                 {{dyi, dzi, dxi}, {dyj, dzj, dxj}}};
      const int(*dirs[3])[4] = {XI, ETA, ZETA};
      for (int a = 0; a < 3; a++) {
        const real ua = U[a][0][0], va = U[a][0][1], wa = U[a][0][2];
        const real ub = U[a][1][0], vb = U[a][1][1], wb = U[a][1][2];
        const real ax = ua * vb - va * ub;
        const real ay = va * wb - wa * vb;
        const real az = wa * ub - ua * wb;
        delx[3 * i + a] = vv / sqrt(ax * ax + ay * ay + az * az + PTINY);
        const real dxv = grad4(xv, dirs[a]), dyv = grad4(yv, dirs[a]), dzv = grad4(zv, dirs[a]);
        delvg[3 * i + a] = (ax * norm) * dxv + (ay * norm) * dyv + (az * norm) * dzv;
      }
    }

    /* monotonic Q, EOS, volumes, time constraints */
    real cmin = (real)1.0e20, hmin = (real)1.0e20;
    for (int64_t pl = 0; pl < E; pl++)
      for (int64_t rw = 0; rw < E; rw++)
        for (int64_t cl = 0; cl < E; cl++) {
          const int64_t i = (pl * E + rw) * E + cl;
          const int64_t stride[3] = {1, E, E * E};
          const int64_t pos[3] = {cl, rw, pl};
          real phis[3], dx3[3];
          for (int a = 0; a < 3; a++) {
            const real dv = delvg[3 * i + a];
            const real nrm = (real)1.0 / (dv + PTINY);
            const real dm = pos[a] == 0 ? dv : delvg[3 * (i - stride[a]) + a];
            const real dp = pos[a] == E - 1 ? (real)0.0 : delvg[3 * (i + stride[a]) + a];
            phis[a] = phi_limit(dm, dp, nrm);
            const real t = dv * delx[3 * i + a];
            dx3[a] = t < (real)0.0 ? t : (real)0.0;
          }
          const real rho = elem_mass[i] / (volo[i] * vnew[i]);
          const real qlin = -(real)0.5 * rho *
                              (dx3[0] * ((real)1.0 - phis[0]) + dx3[1] * ((real)1.0 - phis[1]) +
                               dx3[2] * ((real)1.0 - phis[2]));
          const real qquad = ((real)2.0 / (real)3.0) * rho *
                               (dx3[0] * dx3[0] * ((real)1.0 - phis[0] * phis[0]) +
                                dx3[1] * dx3[1] * ((real)1.0 - phis[1] * phis[1]) +
                                dx3[2] * dx3[2] * ((real)1.0 - phis[2] * phis[2]));
          const real ql = vdov[i] > (real)0.0 ? (real)0.0 : qlin;
          const real qq = vdov[i] > (real)0.0 ? (real)0.0 : qquad;

          real vnewc = vnew[i] > EOSVMIN ? vnew[i] : EOSVMIN;
          if (vnewc > EOSVMAX) vnewc = EOSVMAX;
          const real delv = vnew[i] - v[i];
          real compression = (real)1.0 / vnewc - (real)1.0;
          const real vchalf = vnewc - delv * (real)0.5;
          real comp_half = (real)1.0 / vchalf - (real)1.0;
          if (vnewc <= EOSVMIN) comp_half = compression;
          real p_old = p[i];
          if (vnewc >= EOSVMAX) {
            p_old = (real)0.0;
            compression = (real)0.0;
            comp_half = (real)0.0;
          }
          const real q_old = q[i];
          real bvc;
          real e_new = e[i] - (real)0.5 * delv * (p_old + q_old);
          if (e_new < EMIN) e_new = EMIN;
          const real p_half = pressure(e_new, comp_half, vnewc, &bvc);
          const real vhalf = (real)1.0 / ((real)1.0 + comp_half);
          real ssc = sound(e_new, p_half, bvc, vhalf);
          real q_new = delv > (real)0.0 ? (real)0.0 : ssc * ql + qq;
          e_new = e_new + (real)0.5 * delv * ((real)3.0 * (p_old + q_old) - (real)4.0 * (p_half + q_new));
          if (fabs(e_new) < CUT) e_new = (real)0.0;
          if (e_new < EMIN) e_new = EMIN;
          real p_new = pressure(e_new, compression, vnewc, &bvc);
          ssc = sound(e_new, p_new, bvc, vnewc);
          const real q_tilde = delv > (real)0.0 ? (real)0.0 : ssc * ql + qq;
          e_new = e_new - ((real)7.0 * (p_old + q_old) - (real)8.0 * (p_half + q_new) + (p_new + q_tilde)) *
                              delv * ((real)1.0 / (real)6.0);
          if (fabs(e_new) < CUT) e_new = (real)0.0;
          if (e_new < EMIN) e_new = EMIN;
          p_new = pressure(e_new, compression, vnewc, &bvc);
          ssc = sound(e_new, p_new, bvc, vnewc);
          real q2 = ssc * ql + qq;
          if (fabs(q2) < CUT) q2 = (real)0.0;
          if (delv <= (real)0.0) q_new = q2;
          e[i] = e_new;
          p[i] = p_new;
          q[i] = q_new;
          ss[i] = sound(e_new, p_new, bvc, vnewc);
          v[i] = fabs(vnew[i] - (real)1.0) < V_CUT ? (real)1.0 : vnew[i];

          const real vd = vdov[i];
          if (vd != (real)0.0) {
            real dtf = ss[i] * ss[i];
            if (vd < (real)0.0) dtf = dtf + ((real)64.0 * (real)2.0 * (real)2.0) * arealg[i] * arealg[i] * vd * vd;
            dtf = arealg[i] / sqrt(dtf);
            if (dtf < cmin) cmin = dtf;
            const real dth = (real)0.1 / (fabs(vd) + (real)1.0e-20);
            if (dth < hmin) hmin = dth;
          }
        }
    dtcourant = cmin;
    dthydro = hmin;
  }
  free(x);
  free(y);
  free(z);
  free(xd);
  free(yd);
  free(zd);
  free(fx);
  free(fy);
  free(fz);
  free(nodal_mass);
  free(nodes);
  free(volo);
  free(ss);
  free(vnew);
  free(arealg);
  free(vdov);
  free(delvg);
  free(delx);
}
