#include <stdint.h>
#include <math.h>

void HPCAB_KERNEL(tsvc_2_s318)(const real *restrict a, int64_t *restrict index, real *restrict xmax,
                               const int64_t N, const int64_t inc, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t k = 0;
  int64_t idx = 0;
  real m = fabs(a[0]);
  k += inc;
  for (int64_t i = 1; i < N; i++) {
    if (fabs(a[k]) > m) {
      idx = i;
      m = fabs(a[k]);
    }
    k += inc;
  }
  index[0] = idx;
  xmax[0] = m;
}
