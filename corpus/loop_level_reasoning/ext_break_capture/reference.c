#include <stdint.h>

void HPCAB_KERNEL(ext_break_capture)(const real *restrict a, int64_t *restrict out_index,
                                     real *restrict out_value, const int64_t N,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  out_index[0] = -1;
  out_value[0] = -(real)1.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] * (real)N < (real)2.0) {
      out_index[0] = i;
      out_value[0] = a[i];
      break;
    }
  }
}
