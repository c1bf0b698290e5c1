#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s125)(const real *restrict aa, const real *restrict bb,
                               const real *restrict cc, real *restrict flat_2d_array,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t k = -1;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      k++;
      flat_2d_array[k] = aa[i * N + j] + bb[i * N + j] * cc[i * N + j];
    }
  }
}
