#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void fv3_xppm_fp64(const double *restrict courant, const double *restrict dxa,
                   const double *restrict q, double *restrict xflux, const int64_t ni,
                   const int64_t nj, const int64_t nk, uint8_t *restrict workspace,
                   const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double P1 = 7.0 / 12.0, P2 = -1.0 / 12.0;
  const double C1 = -2.0 / 14.0, C2 = 11.0 / 14.0, C3 = 5.0 / 14.0;
  const int64_t i_start = 3, i_end = 3 + ni - 1, plane = nj * nk;
  /* interface values al[i], i = i_start-1 .. i_end+2 (upstream's temporary) */
  double *restrict al = hpcab_scratch((ni + 6) * plane, sizeof(double));
#define Q(ii) q[(ii) * plane + jk]
#define D(ii) dxa[(ii) * plane + jk]
  for (int64_t i = i_start - 1; i <= i_end + 2; i++) {
    for (int64_t jk = 0; jk < plane; jk++) {
      double a = P1 * (Q(i - 1) + Q(i)) + P2 * (Q(i - 2) + Q(i + 1));
      if (i == i_start - 1 || i == i_end) a = C1 * Q(i - 2) + C2 * Q(i - 1) + C3 * Q(i);
      if (i == i_start || i == i_end + 1) {
        const double left =
            ((2.0 * D(i - 1) + D(i - 2)) * Q(i - 1) - D(i - 1) * Q(i - 2)) / (D(i - 2) + D(i - 1));
        const double right = ((2.0 * D(i) + D(i + 1)) * Q(i) - D(i) * Q(i + 1)) / (D(i) + D(i + 1));
        a = 0.5 * (left + right);
      }
      if (i == i_start + 1 || i == i_end + 2) a = C3 * Q(i - 1) + C2 * Q(i) + C1 * Q(i + 1);
      al[i * plane + jk] = a;
    }
  }
  for (int64_t i = i_start; i <= i_end + 1; i++) {
    for (int64_t jk = 0; jk < plane; jk++) {
      const double c = courant[(i - i_start) * plane + jk];
      const double bl = al[i * plane + jk] - Q(i);
      const double br = al[(i + 1) * plane + jk] - Q(i);
      const double b0 = bl + br;
      const double bl_m1 = al[(i - 1) * plane + jk] - Q(i - 1);
      const double br_m1 = al[i * plane + jk] - Q(i - 1);
      const double b0_m1 = bl_m1 + br_m1;
      const double mask = (bl_m1 * br_m1 < 0.0 || bl * br < 0.0) ? 1.0 : 0.0;
      double flux;
      if (c > 0.0)
        flux = Q(i - 1) + ((1.0 - c) * (br_m1 - c * b0_m1)) * mask;
      else
        flux = Q(i) + ((1.0 + c) * (bl + c * b0)) * mask;
      xflux[(i - i_start) * plane + jk] = flux;
    }
  }
#undef Q
#undef D
  free(al);
}
