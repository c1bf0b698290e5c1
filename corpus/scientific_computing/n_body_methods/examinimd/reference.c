#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

static const real basis_fp64[4][3] = {
    {(real)0.0, (real)0.0, (real)0.0}, {(real)0.0, (real)0.5, (real)0.5}, {(real)0.5, (real)0.0, (real)0.5}, {(real)0.5, (real)0.5, (real)0.0}};

void HPCAB_KERNEL(examinimd)(const real *restrict disp, real *restrict f, const int64_t cells_per_dim,
                             const real cutoff, const real density, const real epsilon,
                             const real sigma, uint8_t *restrict workspace,
                             const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t C = cells_per_dim, n = 4 * C * C * C;
  const real a = pow((real)4.0 / density, (real)1.0 / (real)3.0);
  real *restrict pos = hpcab_scratch(3 * n, sizeof(real));
  for (int64_t i = 0; i < n; i++) {
    const int64_t cell = i / 4, b = i % 4;
    const real site[3] = {(real)(cell / (C * C)) + basis_fp64[b][0],
                            (real)((cell / C) % C) + basis_fp64[b][1],
                            (real)(cell % C) + basis_fp64[b][2]};
    for (int d = 0; d < 3; d++) pos[3 * i + d] = site[d] * a + disp[3 * i + d];
  }
  const real s2 = sigma * sigma, s6 = s2 * s2 * s2;
  const real lj1 = (real)48.0 * epsilon * (s6 * s6), lj2 = (real)24.0 * epsilon * s6;
  const real cutsq = cutoff * cutoff;
  for (int64_t i = 0; i < n; i++) {
    const real xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    real fx = (real)0.0, fy = (real)0.0, fz = (real)0.0;
    for (int64_t j = 0; j < n; j++) {
      if (j == i) continue;
      const real dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
      const real rsq = dx * dx + dy * dy + dz * dz;
      if (rsq < cutsq) {
        const real r2inv = (real)1.0 / rsq;
        const real r6inv = r2inv * r2inv * r2inv;
        const real fpair = (r6inv * (lj1 * r6inv - lj2)) * r2inv;
        fx += dx * fpair;
        fy += dy * fpair;
        fz += dz * fpair;
      }
    }
    f[3 * i] = fx;
    f[3 * i + 1] = fy;
    f[3 * i + 2] = fz;
  }
  free(pos);
}

static const float basis_fp32[4][3] = {
    {(real)0.0, (real)0.0, (real)0.0}, {(real)0.0, (real)0.5, (real)0.5}, {(real)0.5, (real)0.0, (real)0.5}, {(real)0.5, (real)0.5, (real)0.0}};
