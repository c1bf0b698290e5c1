#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s342)(real *restrict a, const real *restrict b, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > (real)0.0) {
      j++;
      a[i] = b[j];
    }
  }
}
