#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s126)(real *restrict bb, const real *restrict cc,
                               const real *restrict flat_2d_array, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t k = 1;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 1; j < N; j++) {
      bb[j * N + i] = bb[(j - 1) * N + i] + flat_2d_array[k - 1] * cc[j * N + i];
      ++k;
    }
    ++k;
  }
}
