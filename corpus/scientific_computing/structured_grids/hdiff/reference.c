#include <stdint.h>

/* 5-point Laplacian of f centred on f[a][b][k] (f has (J+4)*K elements per I-plane). */
static inline double hdiff_lap_fp64(const double *restrict f, const int64_t a, const int64_t b,
                                    const int64_t k, const int64_t J, const int64_t K) {
  const int64_t JK = (J + 4) * K;
  return 4.0 * f[a * JK + b * K + k] - (f[(a + 1) * JK + b * K + k] + f[(a - 1) * JK + b * K + k] +
                                        f[a * JK + (b + 1) * K + k] + f[a * JK + (b - 1) * K + k]);
}

void hdiff_fp64(const double *restrict coeff, const double *restrict in_field,
                double *restrict out_field, const int64_t I, const int64_t J, const int64_t K,
                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const double *restrict f = in_field;
  const int64_t JK = (J + 4) * K;
  for (int64_t i = 0; i < I; i++)
    for (int64_t j = 0; j < J; j++)
      for (int64_t k = 0; k < K; k++) {
        const int64_t a = i + 2, b = j + 2; /* the point in in_field coordinates */
        /* flux along I through the faces below (a-1 | a) and above (a | a+1) */
        double flo = hdiff_lap_fp64(f, a, b, k, J, K) - hdiff_lap_fp64(f, a - 1, b, k, J, K);
        if (flo * (f[a * JK + b * K + k] - f[(a - 1) * JK + b * K + k]) > 0.0) flo = 0.0;
        double fhi = hdiff_lap_fp64(f, a + 1, b, k, J, K) - hdiff_lap_fp64(f, a, b, k, J, K);
        if (fhi * (f[(a + 1) * JK + b * K + k] - f[a * JK + b * K + k]) > 0.0) fhi = 0.0;
        /* flux along J through the faces left (b-1 | b) and right (b | b+1) */
        double glo = hdiff_lap_fp64(f, a, b, k, J, K) - hdiff_lap_fp64(f, a, b - 1, k, J, K);
        if (glo * (f[a * JK + b * K + k] - f[a * JK + (b - 1) * K + k]) > 0.0) glo = 0.0;
        double ghi = hdiff_lap_fp64(f, a, b + 1, k, J, K) - hdiff_lap_fp64(f, a, b, k, J, K);
        if (ghi * (f[a * JK + (b + 1) * K + k] - f[a * JK + b * K + k]) > 0.0) ghi = 0.0;
        const int64_t o = (i * J + j) * K + k;
        out_field[o] = f[a * JK + b * K + k] - coeff[o] * (fhi - flo + ghi - glo);
      }
}

/* 5-point Laplacian of f centred on f[a][b][k] (f has (J+4)*K elements per I-plane). */
static inline float hdiff_lap_fp32(const float *restrict f, const int64_t a, const int64_t b,
                                    const int64_t k, const int64_t J, const int64_t K) {
  const int64_t JK = (J + 4) * K;
  return 4.0f * f[a * JK + b * K + k] - (f[(a + 1) * JK + b * K + k] + f[(a - 1) * JK + b * K + k] +
                                        f[a * JK + (b + 1) * K + k] + f[a * JK + (b - 1) * K + k]);
}

void hdiff_fp32(const float *restrict coeff, const float *restrict in_field,
                float *restrict out_field, const int64_t I, const int64_t J, const int64_t K,
                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const float *restrict f = in_field;
  const int64_t JK = (J + 4) * K;
  for (int64_t i = 0; i < I; i++)
    for (int64_t j = 0; j < J; j++)
      for (int64_t k = 0; k < K; k++) {
        const int64_t a = i + 2, b = j + 2; /* the point in in_field coordinates */
        /* flux along I through the faces below (a-1 | a) and above (a | a+1) */
        float flo = hdiff_lap_fp32(f, a, b, k, J, K) - hdiff_lap_fp32(f, a - 1, b, k, J, K);
        if (flo * (f[a * JK + b * K + k] - f[(a - 1) * JK + b * K + k]) > 0.0f) flo = 0.0f;
        float fhi = hdiff_lap_fp32(f, a + 1, b, k, J, K) - hdiff_lap_fp32(f, a, b, k, J, K);
        if (fhi * (f[(a + 1) * JK + b * K + k] - f[a * JK + b * K + k]) > 0.0f) fhi = 0.0f;
        /* flux along J through the faces left (b-1 | b) and right (b | b+1) */
        float glo = hdiff_lap_fp32(f, a, b, k, J, K) - hdiff_lap_fp32(f, a, b - 1, k, J, K);
        if (glo * (f[a * JK + b * K + k] - f[a * JK + (b - 1) * K + k]) > 0.0f) glo = 0.0f;
        float ghi = hdiff_lap_fp32(f, a, b + 1, k, J, K) - hdiff_lap_fp32(f, a, b, k, J, K);
        if (ghi * (f[a * JK + (b + 1) * K + k] - f[a * JK + b * K + k]) > 0.0f) ghi = 0.0f;
        const int64_t o = (i * J + j) * K + k;
        out_field[o] = f[a * JK + b * K + k] - coeff[o] * (fhi - flo + ghi - glo);
      }
}
