#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

static const double basis_fp64[4][3] = {
    {0.0, 0.0, 0.0}, {0.0, 0.5, 0.5}, {0.5, 0.0, 0.5}, {0.5, 0.5, 0.0}};

void examinimd_fp64(const double *restrict disp, double *restrict f, const int64_t cells_per_dim,
                    const double cutoff, const double density, const double epsilon,
                    const double sigma, uint8_t *restrict workspace,
                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t C = cells_per_dim, n = 4 * C * C * C;
  const double a = pow(4.0 / density, 1.0 / 3.0);
  double *restrict pos = hpcab_scratch(3 * n, sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    const int64_t cell = i / 4, b = i % 4;
    const double site[3] = {(double)(cell / (C * C)) + basis_fp64[b][0],
                            (double)((cell / C) % C) + basis_fp64[b][1],
                            (double)(cell % C) + basis_fp64[b][2]};
    for (int d = 0; d < 3; d++) pos[3 * i + d] = site[d] * a + disp[3 * i + d];
  }
  const double s2 = sigma * sigma, s6 = s2 * s2 * s2;
  const double lj1 = 48.0 * epsilon * (s6 * s6), lj2 = 24.0 * epsilon * s6;
  const double cutsq = cutoff * cutoff;
  for (int64_t i = 0; i < n; i++) {
    const double xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    double fx = 0.0, fy = 0.0, fz = 0.0;
    for (int64_t j = 0; j < n; j++) {
      if (j == i) continue;
      const double dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
      const double rsq = dx * dx + dy * dy + dz * dz;
      if (rsq < cutsq) {
        const double r2inv = 1.0 / rsq;
        const double r6inv = r2inv * r2inv * r2inv;
        const double fpair = (r6inv * (lj1 * r6inv - lj2)) * r2inv;
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
    {0.0f, 0.0f, 0.0f}, {0.0f, 0.5f, 0.5f}, {0.5f, 0.0f, 0.5f}, {0.5f, 0.5f, 0.0f}};

void examinimd_fp32(const float *restrict disp, float *restrict f, const int64_t cells_per_dim,
                    const float cutoff, const float density, const float epsilon,
                    const float sigma, uint8_t *restrict workspace,
                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t C = cells_per_dim, n = 4 * C * C * C;
  const float a = powf(4.0f / density, 1.0f / 3.0f);
  float *restrict pos = hpcab_scratch(3 * n, sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    const int64_t cell = i / 4, b = i % 4;
    const float site[3] = {(float)(cell / (C * C)) + basis_fp32[b][0],
                           (float)((cell / C) % C) + basis_fp32[b][1],
                           (float)(cell % C) + basis_fp32[b][2]};
    for (int d = 0; d < 3; d++) pos[3 * i + d] = site[d] * a + disp[3 * i + d];
  }
  const float s2 = sigma * sigma, s6 = s2 * s2 * s2;
  const float lj1 = 48.0f * epsilon * (s6 * s6), lj2 = 24.0f * epsilon * s6;
  const float cutsq = cutoff * cutoff;
  for (int64_t i = 0; i < n; i++) {
    const float xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for (int64_t j = 0; j < n; j++) {
      if (j == i) continue;
      const float dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
      const float rsq = dx * dx + dy * dy + dz * dz;
      if (rsq < cutsq) {
        const float r2inv = 1.0f / rsq;
        const float r6inv = r2inv * r2inv * r2inv;
        const float fpair = (r6inv * (lj1 * r6inv - lj2)) * r2inv;
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
