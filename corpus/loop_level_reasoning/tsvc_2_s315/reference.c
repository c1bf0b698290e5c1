#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s315)(const real *restrict a, int64_t *restrict index, real *restrict x,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real m = a[0];
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > m) {
      m = a[i];
      k = i;
    }
  }
  x[0] = m;
  index[0] = k;
}
