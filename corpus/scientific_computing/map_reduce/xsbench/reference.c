#include <stdint.h>

/* XSBench's grid_search: lower index of the interval of A[0..n-1] holding quarry. */
static int64_t grid_search_fp64(const int64_t n, const double quarry, const double *restrict A) {
  int64_t lower = 0, upper = n - 1, length = upper - lower;
  while (length > 1) {
    const int64_t exam = lower + length / 2;
    if (A[exam] > quarry)
      upper = exam;
    else
      lower = exam;
    length = upper - lower;
  }
  return lower;
}

void xsbench_fp64(const double *restrict concs, const double *restrict energy,
                  const int32_t *restrict mat_samples, const int32_t *restrict mats,
                  const int32_t *restrict num_nucs, double *restrict out,
                  const double *restrict p_energy_samples, const double *restrict xs,
                  const int64_t max_num_nucs, const int64_t n_gridpoints, const int64_t n_isotopes,
                  const int64_t n_materials, const int64_t n_samples, uint8_t *restrict workspace,
                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  (void)n_materials;
  const int64_t niso = n_isotopes, ng = n_gridpoints, N = niso * ng;
  const double e_lo = energy[niso - 1];
  const double e_hi = energy[(ng - 1) * niso];
  for (int64_t s = 0; s < n_samples; s++) {
    const double p = e_lo + p_energy_samples[s] * (e_hi - e_lo);
    const int64_t m = mat_samples[s];
    const int64_t idx = grid_search_fp64(N, p, energy);
    double macro[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int64_t j = 0; j < num_nucs[m]; j++) {
      const int64_t nuc = mats[m * max_num_nucs + j];
      const double conc = concs[m * max_num_nucs + j];
      int64_t g = (idx - nuc) / niso;
      if (g > ng - 2) g = ng - 2;
      const double e_low = energy[g * niso + nuc];
      const double e_high = energy[(g + 1) * niso + nuc];
      const double f = (e_high - p) / (e_high - e_low);
      const double *lo = xs + (nuc * ng + g) * 5;
      const double *hi = lo + 5;
      for (int c = 0; c < 5; c++) macro[c] += (hi[c] - f * (hi[c] - lo[c])) * conc;
    }
    for (int c = 0; c < 5; c++) out[s * 5 + c] = macro[c];
  }
}

static int64_t grid_search_fp32(const int64_t n, const float quarry, const float *restrict A) {
  int64_t lower = 0, upper = n - 1, length = upper - lower;
  while (length > 1) {
    const int64_t exam = lower + length / 2;
    if (A[exam] > quarry)
      upper = exam;
    else
      lower = exam;
    length = upper - lower;
  }
  return lower;
}

void xsbench_fp32(const float *restrict concs, const float *restrict energy,
                  const int32_t *restrict mat_samples, const int32_t *restrict mats,
                  const int32_t *restrict num_nucs, float *restrict out,
                  const float *restrict p_energy_samples, const float *restrict xs,
                  const int64_t max_num_nucs, const int64_t n_gridpoints, const int64_t n_isotopes,
                  const int64_t n_materials, const int64_t n_samples, uint8_t *restrict workspace,
                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  (void)n_materials;
  const int64_t niso = n_isotopes, ng = n_gridpoints, N = niso * ng;
  const float e_lo = energy[niso - 1];
  const float e_hi = energy[(ng - 1) * niso];
  for (int64_t s = 0; s < n_samples; s++) {
    const float p = e_lo + p_energy_samples[s] * (e_hi - e_lo);
    const int64_t m = mat_samples[s];
    const int64_t idx = grid_search_fp32(N, p, energy);
    float macro[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t j = 0; j < num_nucs[m]; j++) {
      const int64_t nuc = mats[m * max_num_nucs + j];
      const float conc = concs[m * max_num_nucs + j];
      int64_t g = (idx - nuc) / niso;
      if (g > ng - 2) g = ng - 2;
      const float e_low = energy[g * niso + nuc];
      const float e_high = energy[(g + 1) * niso + nuc];
      const float f = (e_high - p) / (e_high - e_low);
      const float *lo = xs + (nuc * ng + g) * 5;
      const float *hi = lo + 5;
      for (int c = 0; c < 5; c++) macro[c] += (hi[c] - f * (hi[c] - lo[c])) * conc;
    }
    for (int c = 0; c < 5; c++) out[s * 5 + c] = macro[c];
  }
}
