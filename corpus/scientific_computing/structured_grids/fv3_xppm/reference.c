#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void HPCAB_KERNEL(fv3_xppm)(const real *restrict courant, const real *restrict dxa,
                            const real *restrict q, real *restrict xflux, const int64_t ni,
                            const int64_t nj, const int64_t nk, uint8_t *restrict workspace,
                            const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real P1 = (real)7.0 / (real)12.0, P2 = -(real)1.0 / (real)12.0;
  const real C1 = -(real)2.0 / (real)14.0, C2 = (real)11.0 / (real)14.0, C3 = (real)5.0 / (real)14.0;
  const int64_t i_start = 3, i_end = 3 + ni - 1, plane = nj * nk;
  /* interface values al[i], i = i_start-1 .. i_end+2 (upstream's temporary) */
  real *restrict al = hpcab_scratch((ni + 6) * plane, sizeof(real));
#define Q(ii) q[(ii) * plane + jk]
#define D(ii) dxa[(ii) * plane + jk]
  for (int64_t i = i_start - 1; i <= i_end + 2; i++) {
    for (int64_t jk = 0; jk < plane; jk++) {
      real a = P1 * (Q(i - 1) + Q(i)) + P2 * (Q(i - 2) + Q(i + 1));
      if (i == i_start - 1 || i == i_end) a = C1 * Q(i - 2) + C2 * Q(i - 1) + C3 * Q(i);
      if (i == i_start || i == i_end + 1) {
        const real left =
            (((real)2.0 * D(i - 1) + D(i - 2)) * Q(i - 1) - D(i - 1) * Q(i - 2)) / (D(i - 2) + D(i - 1));
        const real right = (((real)2.0 * D(i) + D(i + 1)) * Q(i) - D(i) * Q(i + 1)) / (D(i) + D(i + 1));
        a = (real)0.5 * (left + right);
      }
      if (i == i_start + 1 || i == i_end + 2) a = C3 * Q(i - 1) + C2 * Q(i) + C1 * Q(i + 1);
      al[i * plane + jk] = a;
    }
  }
  for (int64_t i = i_start; i <= i_end + 1; i++) {
    for (int64_t jk = 0; jk < plane; jk++) {
      const real c = courant[(i - i_start) * plane + jk];
      const real bl = al[i * plane + jk] - Q(i);
      const real br = al[(i + 1) * plane + jk] - Q(i);
      const real b0 = bl + br;
      const real bl_m1 = al[(i - 1) * plane + jk] - Q(i - 1);
      const real br_m1 = al[i * plane + jk] - Q(i - 1);
      const real b0_m1 = bl_m1 + br_m1;
      const real mask = (bl_m1 * br_m1 < (real)0.0 || bl * br < (real)0.0) ? (real)1.0 : (real)0.0;
      real flux;
      if (c > (real)0.0)
        flux = Q(i - 1) + (((real)1.0 - c) * (br_m1 - c * b0_m1)) * mask;
      else
        flux = Q(i) + (((real)1.0 + c) * (bl + c * b0)) * mask;
      xflux[(i - i_start) * plane + jk] = flux;
    }
  }
#undef Q
#undef D
  free(al);
}
