#include <stdint.h>
#include <stdlib.h>

void HPCAB_KERNEL(azimint_hist)(const real *restrict data, const real *restrict radius,
                                real *restrict res, const int64_t N, const int64_t npt,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* NPBench's count histogram: the reference's own scratch, not graded */
  int64_t *restrict counts = calloc(npt > 0 ? (size_t)npt : 1, sizeof(int64_t));
  if (counts == NULL) abort();
  real rmin = radius[0], rmax = radius[0];
  for (int64_t j = 1; j < N; j++) {
    if (radius[j] < rmin) rmin = radius[j];
    if (radius[j] > rmax) rmax = radius[j];
  }
  for (int64_t i = 0; i < npt; i++) {
    counts[i] = 0;
    res[i] = (real)0.0;
  }
  /* one pass: the count histogram and the data-weighted histogram */
  for (int64_t j = 0; j < N; j++) {
    int64_t b = (int64_t)((radius[j] - rmin) * (real)npt / (rmax - rmin));
    if (b > npt - 1) b = npt - 1;
    counts[b]++;
    res[b] += data[j];
  }
  for (int64_t i = 0; i < npt; i++) res[i] = counts[i] > 0 ? res[i] / (real)counts[i] : (real)0.0;
  free(counts);
}
