#include <stdint.h>

void HPCAB_KERNEL(azimint_naive)(const real *restrict data, const real *restrict radius,
                                 real *restrict res, const int64_t N, const int64_t npt,
                                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real rmax = radius[0];
  for (int64_t j = 1; j < N; j++)
    if (radius[j] > rmax) rmax = radius[j];
  for (int64_t i = 0; i < npt; i++) {
    const real r1 = rmax * (real)i / (real)npt;
    const real r2 = rmax * (real)(i + 1) / (real)npt;
    real s = (real)0.0;
    int64_t count = 0;
    for (int64_t j = 0; j < N; j++)
      if (r1 <= radius[j] && radius[j] < r2) {
        s += data[j];
        count++;
      }
    res[i] = count > 0 ? s / (real)count : (real)0.0;
  }
}
