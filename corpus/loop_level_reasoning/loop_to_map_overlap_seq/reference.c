#include <stdint.h>

void HPCAB_KERNEL(loop_to_map_overlap_seq)(real *restrict a, const real *restrict b,
                                           const int64_t N, uint8_t *restrict workspace,
                                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / 5; i++) {
    a[5 * i] = b[i] + (real)1.0;
    a[3 * i] = b[i] * (real)2.0;
  }
}
