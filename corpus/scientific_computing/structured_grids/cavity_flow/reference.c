#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void HPCAB_KERNEL(cavity_flow)(real *restrict p, real *restrict u, real *restrict v,
                               const int64_t nit, const int64_t nt, const real nu, const int64_t nx,
                               const int64_t ny, const real rho, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
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
  const int64_t n = nx * ny;
  real *un = malloc(sizeof(real) * 4 * (size_t)n), *vn = un + n, *pn = vn + n, *b = pn + n;
  for (int64_t t = 0; t < n; t++) b[t] = 0;
  for (int64_t step = 0; step < nt; step++) {
    memcpy(un, u, sizeof(real) * (size_t)n);
    memcpy(vn, v, sizeof(real) * (size_t)n);
    for (int64_t i = 1; i < ny - 1; i++)
      for (int64_t j = 1; j < nx - 1; j++) {
        const int64_t c = i * nx + j;
        const real dudx = (u[c + 1] - u[c - 1]) * cx, dvdy = (v[c + nx] - v[c - nx]) * cy;
        const real dudy = (u[c + nx] - u[c - nx]) * cy, dvdx = (v[c + 1] - v[c - 1]) * cx;
        b[c] = rho * (inv_dt * (dudx + dvdy) - dudx * dudx - 2 * (dudy * dvdx) - dvdy * dvdy);
      }
    for (int64_t q = 0; q < nit; q++) {
      memcpy(pn, p, sizeof(real) * (size_t)n);
      for (int64_t i = 1; i < ny - 1; i++)
        for (int64_t j = 1; j < nx - 1; j++) {
          const int64_t c = i * nx + j;
          p[c] =
              ((pn[c + 1] + pn[c - 1]) * dy2 + (pn[c + nx] + pn[c - nx]) * dx2) * cden - cb * b[c];
        }
      for (int64_t i = 0; i < ny; i++) p[i * nx + nx - 1] = p[i * nx + nx - 2];
      for (int64_t j = 0; j < nx; j++) p[j] = p[nx + j];
      for (int64_t i = 0; i < ny; i++) p[i * nx] = p[i * nx + 1];
      for (int64_t j = 0; j < nx; j++) p[(ny - 1) * nx + j] = 0;
    }
    for (int64_t i = 1; i < ny - 1; i++)
      for (int64_t j = 1; j < nx - 1; j++) {
        const int64_t c = i * nx + j;
        const real uc = un[c], vc = vn[c];
        u[c] =
            uc - (uc * ax) * (uc - un[c - 1]) - (vc * ay) * (uc - un[c - nx]) -
            px * (p[c + 1] - p[c - 1]) +
            (lx * ((un[c + 1] - 2 * uc) + un[c - 1]) + ly * ((un[c + nx] - 2 * uc) + un[c - nx]));
        v[c] =
            vc - (uc * ax) * (vc - vn[c - 1]) - (vc * ay) * (vc - vn[c - nx]) -
            py * (p[c + nx] - p[c - nx]) +
            (lx * ((vn[c + 1] - 2 * vc) + vn[c - 1]) + ly * ((vn[c + nx] - 2 * vc) + vn[c - nx]));
      }
    for (int64_t j = 0; j < nx; j++) u[j] = 0;
    for (int64_t i = 0; i < ny; i++) u[i * nx] = 0;
    for (int64_t i = 0; i < ny; i++) u[i * nx + nx - 1] = 0;
    for (int64_t j = 0; j < nx; j++) u[(ny - 1) * nx + j] = 1;
    for (int64_t j = 0; j < nx; j++) v[j] = 0;
    for (int64_t j = 0; j < nx; j++) v[(ny - 1) * nx + j] = 0;
    for (int64_t i = 0; i < ny; i++) v[i * nx] = 0;
    for (int64_t i = 0; i < ny; i++) v[i * nx + nx - 1] = 0;
  }
  free(un);
}
