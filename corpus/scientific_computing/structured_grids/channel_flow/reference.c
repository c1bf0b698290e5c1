#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void HPCAB_KERNEL(channel_flow)(real *restrict p, real *restrict u, real *restrict v, const real F,
                                const int64_t nit, const int64_t nt, const real nu,
                                const int64_t nx, const int64_t ny, const real rho,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double dx = 2.0 / (double)(nx - 1), dy = 2.0 / (double)(ny - 1);
  const double dt = 0.1 / (double)((nx - 1) * (ny - 1));
  const double rho_ = (double)rho, nu_ = (double)nu;
  const real inv_dt = (real)(1.0 / dt), cx = (real)(1.0 / (2.0 * dx)),
             cy = (real)(1.0 / (2.0 * dy));
  const real dx2 = (real)(dx * dx), dy2 = (real)(dy * dy);
  const real cden = (real)(1.0 / (2.0 * (dx * dx + dy * dy)));
  const real cb = (real)(dx * dx * dy * dy / (2.0 * (dx * dx + dy * dy)));
  const real ax = (real)(dt / dx), ay = (real)(dt / dy);
  const real px = (real)(dt / (2.0 * rho_ * dx)), py = (real)(dt / (2.0 * rho_ * dy));
  const real lx = (real)(nu_ * dt / (dx * dx)), ly = (real)(nu_ * dt / (dy * dy));
  const real fdt = (real)((double)F * dt);
  const int64_t n = nx * ny;
  real *un = malloc(sizeof(real) * 4 * (size_t)n), *vn = un + n, *pn = vn + n, *b = pn + n;
  for (int64_t t = 0; t < n; t++) b[t] = 0;
  for (int64_t step = 0; step < nt; step++) {
    memcpy(un, u, sizeof(real) * (size_t)n);
    memcpy(vn, v, sizeof(real) * (size_t)n);
    for (int64_t i = 1; i < ny - 1; i++)
      for (int64_t j = 0; j < nx; j++) {
        const int64_t c = i * nx + j;
        const int64_t e = i * nx + (j + 1) % nx, w = i * nx + (j + nx - 1) % nx;
        const real dudx = (u[e] - u[w]) * cx, dvdy = (v[c + nx] - v[c - nx]) * cy;
        const real dudy = (u[c + nx] - u[c - nx]) * cy, dvdx = (v[e] - v[w]) * cx;
        b[c] = rho * (inv_dt * (dudx + dvdy) - dudx * dudx - 2 * (dudy * dvdx) - dvdy * dvdy);
      }
    for (int64_t q = 0; q < nit; q++) {
      memcpy(pn, p, sizeof(real) * (size_t)n);
      for (int64_t i = 1; i < ny - 1; i++)
        for (int64_t j = 0; j < nx; j++) {
          const int64_t c = i * nx + j;
          const int64_t e = i * nx + (j + 1) % nx, w = i * nx + (j + nx - 1) % nx;
          p[c] = ((pn[e] + pn[w]) * dy2 + (pn[c + nx] + pn[c - nx]) * dx2) * cden - cb * b[c];
        }
      for (int64_t j = 0; j < nx; j++) p[(ny - 1) * nx + j] = p[(ny - 2) * nx + j];
      for (int64_t j = 0; j < nx; j++) p[j] = p[nx + j];
    }
    for (int64_t i = 1; i < ny - 1; i++)
      for (int64_t j = 0; j < nx; j++) {
        const int64_t c = i * nx + j;
        const int64_t e = i * nx + (j + 1) % nx, w = i * nx + (j + nx - 1) % nx;
        const real uc = un[c], vc = vn[c];
        u[c] = uc - (uc * ax) * (uc - un[w]) - (vc * ay) * (uc - un[c - nx]) - px * (p[e] - p[w]) +
               (lx * ((un[e] - 2 * uc) + un[w]) + ly * ((un[c + nx] - 2 * uc) + un[c - nx])) + fdt;
        v[c] = vc - (uc * ax) * (vc - vn[w]) - (vc * ay) * (vc - vn[c - nx]) -
               py * (p[c + nx] - p[c - nx]) +
               (lx * ((vn[e] - 2 * vc) + vn[w]) + ly * ((vn[c + nx] - 2 * vc) + vn[c - nx]));
      }
    for (int64_t j = 0; j < nx; j++) {
      u[j] = 0;
      u[(ny - 1) * nx + j] = 0;
      v[j] = 0;
      v[(ny - 1) * nx + j] = 0;
    }
  }
  free(un);
}
