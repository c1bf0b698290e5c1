#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s13110)(const real *restrict aa, real *restrict amax,
                                 int64_t *restrict xindex, int64_t *restrict yindex,
                                 const int64_t N, uint8_t *restrict workspace,
                                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real max = aa[0];
  int64_t xi = 0, yi = 0;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      if (aa[i * N + j] > max) {
        max = aa[i * N + j];
        xi = i;
        yi = j;
      }
    }
  }
  amax[0] = max;
  xindex[0] = xi;
  yindex[0] = yi;
}
