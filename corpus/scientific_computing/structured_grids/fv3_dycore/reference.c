#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

/* cubed-sphere corner fills (dst_i, dst_j, src_i, src_j), negative = from the end; the y table
   is the x table transposed */
static const int corners_x[36][4] = {
    {0, 0, 0, 5},     {0, 1, 1, 5},     {0, 2, 2, 5},     {1, 0, 0, 4},     {1, 1, 1, 4},
    {1, 2, 2, 4},     {2, 0, 0, 3},     {2, 1, 1, 3},     {2, 2, 2, 3},     {0, -4, 2, -7},
    {0, -3, 1, -7},   {0, -2, 0, -7},   {1, -4, 2, -6},   {1, -3, 1, -6},   {1, -2, 0, -6},
    {2, -4, 2, -5},   {2, -3, 1, -5},   {2, -2, 0, -5},   {-4, 0, -2, 3},   {-4, 1, -3, 3},
    {-4, 2, -4, 3},   {-3, 0, -2, 4},   {-3, 1, -3, 4},   {-3, 2, -4, 4},   {-2, 0, -2, 5},
    {-2, 1, -3, 5},   {-2, 2, -4, 5},   {-4, -2, -2, -5}, {-4, -3, -3, -5}, {-4, -4, -4, -5},
    {-3, -2, -2, -6}, {-3, -3, -3, -6}, {-3, -4, -4, -6}, {-2, -2, -2, -7}, {-2, -3, -3, -7},
    {-2, -4, -4, -7}};

static void corners(const real *restrict q, real *restrict f, const int64_t nx,
                         const int64_t ny, const int64_t nk, const int transpose) {
  for (int64_t i = 0; i < nx * ny * nk; i++) f[i] = q[i];
  for (int e = 0; e < 36; e++) {
    int64_t di = corners_x[e][transpose ? 1 : 0], dj = corners_x[e][transpose ? 0 : 1];
    int64_t si = corners_x[e][transpose ? 3 : 2], sj = corners_x[e][transpose ? 2 : 3];
    if (di < 0) di += nx;
    if (dj < 0) dj += ny;
    if (si < 0) si += nx;
    if (sj < 0) sj += ny;
    for (int64_t k = 0; k < nk; k++) f[(di * ny + dj) * nk + k] = q[(si * ny + sj) * nk + k];
  }
}

/* PPM flux (mord 6) of a along axis 0 (i, stride ny*nk) or 1 (j, stride nk) of the
   [nx][ny][nk] fields: flux written at interfaces 3 .. n-3 of that axis (n its length), out
   zero elsewhere; al is scratch. Points are visited in memory order. */
static void ppm(const real *restrict a, const real *restrict c, real *restrict out,
                     real *restrict al, const int64_t nx, const int64_t ny, const int64_t nk,
                     const int axis) {
  const real P1 = (real)7.0 / (real)12.0, P2 = -(real)1.0 / (real)12.0;
  const int64_t si = axis == 0 ? ny * nk : nk, n = axis == 0 ? nx : ny;
  for (int64_t i = 0; i < nx; i++)
    for (int64_t j = 0; j < ny; j++) {
      const int64_t p = axis == 0 ? i : j;
      for (int64_t k = 0; k < nk; k++) {
        const int64_t o = (i * ny + j) * nk + k;
        if (p >= 2 && p <= n - 2)
          al[o] = P1 * (a[o - si] + a[o]) + P2 * (a[o - 2 * si] + a[o + si]);
      }
    }
  for (int64_t i = 0; i < nx; i++)
    for (int64_t j = 0; j < ny; j++) {
      const int64_t p = axis == 0 ? i : j;
      for (int64_t k = 0; k < nk; k++) {
        const int64_t o = (i * ny + j) * nk + k;
        if (p < 3 || p > n - 3) {
          out[o] = (real)0.0;
          continue;
        }
        const real ai = a[o], am = a[o - si];
        const real bl = al[o] - ai;
        const real br = al[o + si] - ai;
        const real b0 = bl + br;
        const real bl_m1 = al[o - si] - am;
        const real br_m1 = al[o] - am;
        const real b0_m1 = bl_m1 + br_m1;
        const int smt5 = (real)3.0 * fabs(b0) < fabs(bl - br);
        const int smt5_m1 = (real)3.0 * fabs(b0_m1) < fabs(bl_m1 - br_m1);
        const real mask = (smt5_m1 || smt5) ? (real)1.0 : (real)0.0;
        const real cc = c[o];
        if (cc > (real)0.0)
          out[o] = am + (((real)1.0 - cc) * (br_m1 - cc * b0_m1)) * mask;
        else
          out[o] = ai + (((real)1.0 + cc) * (bl + cc * b0)) * mask;
      }
    }
}

void HPCAB_KERNEL(fv3_dycore)(const real *restrict area, const real *restrict crx,
                              const real *restrict cry, const real *restrict q,
                              real *restrict q_x_flux, real *restrict q_y_flux,
                              const real *restrict x_area_flux, const real *restrict y_area_flux,
                              const int64_t ni, const int64_t nj, const int64_t nk,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t nx = ni + 6, ny = nj + 6, sz = nx * ny * nk;
  /* upstream temporaries: the reference's own scratch */
  real *restrict qc = hpcab_scratch(sz, sizeof(real));
  real *restrict fx = hpcab_scratch(sz, sizeof(real));
  real *restrict fy = hpcab_scratch(sz, sizeof(real));
  real *restrict qa = hpcab_scratch(sz, sizeof(real));
  real *restrict q_ayxa = hpcab_scratch(sz, sizeof(real));
  real *restrict q_axya = hpcab_scratch(sz, sizeof(real));
  real *restrict al = hpcab_scratch(sz, sizeof(real));
#define IX(i, j, k) (((i) * ny + (j)) * nk + (k))
  /* inner y sweep, q_i, outer x sweep */
  corners(q, qc, nx, ny, nk, 1);
  ppm(qc, cry, fy, al, nx, ny, nk, 1);
  for (int64_t i = 0; i < nx; i++)
    for (int64_t j = 0; j < ny; j++)
      for (int64_t k = 0; k < nk; k++) {
        real v = (real)0.0;
        if (j >= 3 && j < nj + 3)
          v = ((qc[IX(i, j, k)] * area[IX(i, j, k)] + y_area_flux[IX(i, j, k)] * fy[IX(i, j, k)]) -
               y_area_flux[IX(i, j + 1, k)] * fy[IX(i, j + 1, k)]) /
              ((area[IX(i, j, k)] + y_area_flux[IX(i, j, k)]) - y_area_flux[IX(i, j + 1, k)]);
        qa[IX(i, j, k)] = v;
      }
  ppm(qa, crx, q_ayxa, al, nx, ny, nk, 0);
  /* inner x sweep, q_j, outer y sweep */
  corners(q, qc, nx, ny, nk, 0);
  ppm(qc, crx, fx, al, nx, ny, nk, 0);
  for (int64_t i = 0; i < nx; i++)
    for (int64_t j = 0; j < ny; j++)
      for (int64_t k = 0; k < nk; k++) {
        real v = (real)0.0;
        if (i >= 3 && i < ni + 3)
          v = ((qc[IX(i, j, k)] * area[IX(i, j, k)] + x_area_flux[IX(i, j, k)] * fx[IX(i, j, k)]) -
               x_area_flux[IX(i + 1, j, k)] * fx[IX(i + 1, j, k)]) /
              ((area[IX(i, j, k)] + x_area_flux[IX(i, j, k)]) - x_area_flux[IX(i + 1, j, k)]);
        qa[IX(i, j, k)] = v;
      }
  ppm(qa, cry, q_axya, al, nx, ny, nk, 1);
  /* FV3 eq 4.17 */
  for (int64_t i = 3; i <= ni + 3; i++)
    for (int64_t j = 3; j < nj + 3; j++)
      for (int64_t k = 0; k < nk; k++)
        q_x_flux[((i - 3) * nj + (j - 3)) * nk + k] =
            ((real)0.5 * (q_ayxa[IX(i, j, k)] + fx[IX(i, j, k)])) * x_area_flux[IX(i, j, k)];
  for (int64_t i = 3; i < ni + 3; i++)
    for (int64_t j = 3; j <= nj + 3; j++)
      for (int64_t k = 0; k < nk; k++)
        q_y_flux[((i - 3) * (nj + 1) + (j - 3)) * nk + k] =
            ((real)0.5 * (q_axya[IX(i, j, k)] + fy[IX(i, j, k)])) * y_area_flux[IX(i, j, k)];
#undef IX
  free(qc);
  free(fx);
  free(fy);
  free(qa);
  free(q_ayxa);
  free(q_axya);
  free(al);
}
