#include <stdint.h>

/* 5-point Laplacian of f centred on f[a][b][k] (f has (J+4)*K elements per I-plane). */
static inline real hdiff_lap(const real *restrict f, const int64_t a, const int64_t b,
                                    const int64_t k, const int64_t J, const int64_t K) {
  const int64_t JK = (J + 4) * K;
  return (real)4.0 * f[a * JK + b * K + k] - (f[(a + 1) * JK + b * K + k] + f[(a - 1) * JK + b * K + k] +
                                        f[a * JK + (b + 1) * K + k] + f[a * JK + (b - 1) * K + k]);
}

void HPCAB_KERNEL(hdiff)(const real *restrict coeff, const real *restrict in_field,
                         real *restrict out_field, const int64_t I, const int64_t J, const int64_t K,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real *restrict f = in_field;
  const int64_t JK = (J + 4) * K;
  for (int64_t i = 0; i < I; i++)
    for (int64_t j = 0; j < J; j++)
      for (int64_t k = 0; k < K; k++) {
        const int64_t a = i + 2, b = j + 2; /* the point in in_field coordinates */
        /* flux along I through the faces below (a-1 | a) and above (a | a+1) */
        real flo = hdiff_lap(f, a, b, k, J, K) - hdiff_lap(f, a - 1, b, k, J, K);
        if (flo * (f[a * JK + b * K + k] - f[(a - 1) * JK + b * K + k]) > (real)0.0) flo = (real)0.0;
        real fhi = hdiff_lap(f, a + 1, b, k, J, K) - hdiff_lap(f, a, b, k, J, K);
        if (fhi * (f[(a + 1) * JK + b * K + k] - f[a * JK + b * K + k]) > (real)0.0) fhi = (real)0.0;
        /* flux along J through the faces left (b-1 | b) and right (b | b+1) */
        real glo = hdiff_lap(f, a, b, k, J, K) - hdiff_lap(f, a, b - 1, k, J, K);
        if (glo * (f[a * JK + b * K + k] - f[a * JK + (b - 1) * K + k]) > (real)0.0) glo = (real)0.0;
        real ghi = hdiff_lap(f, a, b + 1, k, J, K) - hdiff_lap(f, a, b, k, J, K);
        if (ghi * (f[a * JK + (b + 1) * K + k] - f[a * JK + b * K + k]) > (real)0.0) ghi = (real)0.0;
        const int64_t o = (i * J + j) * K + k;
        out_field[o] = f[a * JK + b * K + k] - coeff[o] * (fhi - flo + ghi - glo);
      }
}
