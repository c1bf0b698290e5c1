#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 8th-order central second-derivative weights: centre, then offsets 1..4 */
#define CF_C0 (-205.0 / 72.0)
static const double cf_w64[4] = {8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0};
static const float cf_w32[4] = {(float)(8.0 / 5.0), (float)(-1.0 / 5.0), (float)(8.0 / 315.0),
                                (float)(-1.0 / 560.0)};

/* Ynew = (H Y - c Y) * s1 - s2 * Xp, H = -half_inv_h2 * stencil + vloc (periodic, k states per point) */
static void cf_step_fp64(const double *restrict Y, const double *restrict Xp, double *restrict Ynew,
                         const double *restrict vloc, const int64_t N, const int64_t k, const double hih2,
                         const double c, const double s1, const double s2) {
  for (int64_t x = 0; x < N; x++)
    for (int64_t y = 0; y < N; y++)
      for (int64_t z = 0; z < N; z++) {
        const int64_t p = (x * N + y) * N + z;
        /* the 24 periodic neighbours: x - m, x + m, then y, then z, for m = 1..4 */
        const double *nb[24];
        for (int64_t m = 1; m <= 4; m++) {
          nb[2 * (m - 1)] = Y + ((((x - m + N) % N) * N + y) * N + z) * k;
          nb[2 * (m - 1) + 1] = Y + ((((x + m) % N) * N + y) * N + z) * k;
          nb[8 + 2 * (m - 1)] = Y + ((x * N + (y - m + N) % N) * N + z) * k;
          nb[8 + 2 * (m - 1) + 1] = Y + ((x * N + (y + m) % N) * N + z) * k;
          nb[16 + 2 * (m - 1)] = Y + ((x * N + y) * N + (z - m + N) % N) * k;
          nb[16 + 2 * (m - 1) + 1] = Y + ((x * N + y) * N + (z + m) % N) * k;
        }
        const double vp = vloc[p];
        for (int64_t s = 0; s < k; s++) {
          const double yv = Y[p * k + s];
          double acc = (3.0 * CF_C0) * yv;
          for (int64_t q = 0; q < 24; q += 2) acc = acc + cf_w64[(q / 2) % 4] * (nb[q][s] + nb[q + 1][s]);
          const double hy = -hih2 * acc + vp * yv;
          double v = (hy - c * yv) * s1;
          if (Xp != NULL) v = v - s2 * Xp[p * k + s];
          Ynew[p * k + s] = v;
        }
      }
}

void chebyshev_filter_subspace_fp64(const double *restrict X, double *restrict out,
                                    const double *restrict vloc, const int64_t N, const double a,
                                    const double a0, const double b, const double half_inv_h2,
                                    const int64_t k, const int64_t m, uint8_t *restrict workspace,
                                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n = N * N * N * k;
  const double e = 0.5 * (b - a);
  const double c = 0.5 * (b + a);
  double sigma = e / (a0 - c);
  const double sigma1 = sigma;
  /* three rotating buffers: previous iterate, current, next (the reference's own scratch) */
  double *restrict buf1 = malloc((size_t)n * sizeof(double));
  double *restrict buf2 = malloc((size_t)n * sizeof(double));
  double *restrict buf3 = malloc((size_t)n * sizeof(double));
  if (buf1 == NULL || buf2 == NULL || buf3 == NULL) abort();
  const double *Xp = X;
  double *Y = buf1, *Ynew = buf2, *spare = buf3;
  cf_step_fp64(X, NULL, Y, vloc, N, k, half_inv_h2, c, sigma1 / e, 0.0);
  for (int64_t it = 2; it <= m; it++) {
    const double sigma_new = 1.0 / (2.0 / sigma1 - sigma);
    cf_step_fp64(Y, Xp, Ynew, vloc, N, k, half_inv_h2, c, 2.0 * sigma_new / e, sigma * sigma_new);
    /* rotate: Xp <- Y, Y <- Ynew; the old Xp buffer (if ours) becomes the next target */
    double *old = (Xp == X) ? spare : (double *)Xp;
    Xp = Y;
    Y = Ynew;
    Ynew = old;
    sigma = sigma_new;
  }
  memcpy(out, Y, (size_t)n * sizeof(double));
  free(buf1);
  free(buf2);
  free(buf3);
}

static void cf_step_fp32(const float *restrict Y, const float *restrict Xp, float *restrict Ynew,
                         const float *restrict vloc, const int64_t N, const int64_t k, const float hih2,
                         const float c, const float s1, const float s2) {
  for (int64_t x = 0; x < N; x++)
    for (int64_t y = 0; y < N; y++)
      for (int64_t z = 0; z < N; z++) {
        const int64_t p = (x * N + y) * N + z;
        /* the 24 periodic neighbours: x - m, x + m, then y, then z, for m = 1..4 */
        const float *nb[24];
        for (int64_t m = 1; m <= 4; m++) {
          nb[2 * (m - 1)] = Y + ((((x - m + N) % N) * N + y) * N + z) * k;
          nb[2 * (m - 1) + 1] = Y + ((((x + m) % N) * N + y) * N + z) * k;
          nb[8 + 2 * (m - 1)] = Y + ((x * N + (y - m + N) % N) * N + z) * k;
          nb[8 + 2 * (m - 1) + 1] = Y + ((x * N + (y + m) % N) * N + z) * k;
          nb[16 + 2 * (m - 1)] = Y + ((x * N + y) * N + (z - m + N) % N) * k;
          nb[16 + 2 * (m - 1) + 1] = Y + ((x * N + y) * N + (z + m) % N) * k;
        }
        const float vp = vloc[p];
        for (int64_t s = 0; s < k; s++) {
          const float yv = Y[p * k + s];
          float acc = (float)(3.0 * CF_C0) * yv;
          for (int64_t q = 0; q < 24; q += 2) acc = acc + cf_w32[(q / 2) % 4] * (nb[q][s] + nb[q + 1][s]);
          const float hy = -hih2 * acc + vp * yv;
          float v = (hy - c * yv) * s1;
          if (Xp != NULL) v = v - s2 * Xp[p * k + s];
          Ynew[p * k + s] = v;
        }
      }
}

void chebyshev_filter_subspace_fp32(const float *restrict X, float *restrict out,
                                    const float *restrict vloc, const int64_t N, const float a,
                                    const float a0, const float b, const float half_inv_h2,
                                    const int64_t k, const int64_t m, uint8_t *restrict workspace,
                                    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n = N * N * N * k;
  const float e = 0.5f * (b - a);
  const float c = 0.5f * (b + a);
  float sigma = e / (a0 - c);
  const float sigma1 = sigma;
  /* three rotating buffers: previous iterate, current, next (the reference's own scratch) */
  float *restrict buf1 = malloc((size_t)n * sizeof(float));
  float *restrict buf2 = malloc((size_t)n * sizeof(float));
  float *restrict buf3 = malloc((size_t)n * sizeof(float));
  if (buf1 == NULL || buf2 == NULL || buf3 == NULL) abort();
  const float *Xp = X;
  float *Y = buf1, *Ynew = buf2, *spare = buf3;
  cf_step_fp32(X, NULL, Y, vloc, N, k, half_inv_h2, c, sigma1 / e, 0.0f);
  for (int64_t it = 2; it <= m; it++) {
    const float sigma_new = 1.0f / (2.0f / sigma1 - sigma);
    cf_step_fp32(Y, Xp, Ynew, vloc, N, k, half_inv_h2, c, 2.0f * sigma_new / e, sigma * sigma_new);
    /* rotate: Xp <- Y, Y <- Ynew; the old Xp buffer (if ours) becomes the next target */
    float *old = (Xp == X) ? spare : (float *)Xp;
    Xp = Y;
    Y = Ynew;
    Ynew = old;
    sigma = sigma_new;
  }
  memcpy(out, Y, (size_t)n * sizeof(float));
  free(buf1);
  free(buf2);
  free(buf3);
}
