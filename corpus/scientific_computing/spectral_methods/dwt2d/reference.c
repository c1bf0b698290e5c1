#include <stdint.h>

void HPCAB_KERNEL(dwt2d)(real *restrict img, const int64_t N, const int64_t nlevels,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t l = 0; l < nlevels; l++) {
    const int64_t s = (int64_t)1 << l;
    const int64_t n = (N + s - 1) / s; /* samples per row or column at this level */
    /* rows */
    for (int64_t i = 0; i < n; i++) {
      real *row = img + i * s * N;
      for (int64_t j = 0; j + 1 < n; j += 2) {
        const real a = row[j * s], b = row[(j + 1) * s];
        row[j * s] = (a + b) * (real)0.5;
        row[(j + 1) * s] = (a - b) * (real)0.5;
      }
    }
    /* columns */
    for (int64_t i = 0; i + 1 < n; i += 2) {
      real *r0 = img + i * s * N;
      real *r1 = img + (i + 1) * s * N;
      for (int64_t j = 0; j < n; j++) {
        const real a = r0[j * s], b = r1[j * s];
        r0[j * s] = (a + b) * (real)0.5;
        r1[j * s] = (a - b) * (real)0.5;
      }
    }
  }
}
