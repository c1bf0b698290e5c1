#include <stdint.h>

void HPCAB_KERNEL(argmax_with_index)(const real *restrict a, int64_t *restrict out_index,
                                     real *restrict out_value, const int64_t N,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real x = a[0];
  int64_t idx = 0;
  for (int64_t i = 1; i < N; i++) {
    if (a[i] > x) {
      x = a[i];
      idx = i;
    }
  }
  out_value[0] = x;
  out_index[0] = idx;
}
