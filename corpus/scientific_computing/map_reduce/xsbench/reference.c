#include <stdint.h>

/* XSBench's grid_search: lower index of the interval of A[0..n-1] holding quarry. */
static int64_t grid_search(const int64_t n, const real quarry, const real *restrict A) {
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

void HPCAB_KERNEL(xsbench)(const real *restrict concs, const real *restrict energy,
                           const int32_t *restrict mat_samples, const int32_t *restrict mats,
                           const int32_t *restrict num_nucs, real *restrict out,
                           const real *restrict p_energy_samples, const real *restrict xs,
                           const int64_t max_num_nucs, const int64_t n_gridpoints,
                           const int64_t n_isotopes, const int64_t n_materials,
                           const int64_t n_samples, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  (void)n_materials;
  const int64_t niso = n_isotopes, ng = n_gridpoints, N = niso * ng;
  const real e_lo = energy[niso - 1];
  const real e_hi = energy[(ng - 1) * niso];
  for (int64_t s = 0; s < n_samples; s++) {
    const real p = e_lo + p_energy_samples[s] * (e_hi - e_lo);
    const int64_t m = mat_samples[s];
    const int64_t idx = grid_search(N, p, energy);
    real macro[5] = {(real)0.0, (real)0.0, (real)0.0, (real)0.0, (real)0.0};
    for (int64_t j = 0; j < num_nucs[m]; j++) {
      const int64_t nuc = mats[m * max_num_nucs + j];
      const real conc = concs[m * max_num_nucs + j];
      int64_t g = (idx - nuc) / niso;
      if (g > ng - 2) g = ng - 2;
      const real e_low = energy[g * niso + nuc];
      const real e_high = energy[(g + 1) * niso + nuc];
      const real f = (e_high - p) / (e_high - e_low);
      const real *lo = xs + (nuc * ng + g) * 5;
      const real *hi = lo + 5;
      for (int c = 0; c < 5; c++) macro[c] += (hi[c] - f * (hi[c] - lo[c])) * conc;
    }
    for (int c = 0; c < 5; c++) out[s * 5 + c] = macro[c];
  }
}
