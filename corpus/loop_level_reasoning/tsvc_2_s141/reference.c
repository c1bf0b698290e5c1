#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s141)(const real *restrict bb, real *restrict flat_2d_array,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    int64_t k = (i + 1) * ((i + 1) - 1) / 2 + (i + 1) - 1;
    for (int64_t j = i; j < N; j++) {
      flat_2d_array[k] += bb[j * N + i];
      k += j + 1;
    }
  }
}
