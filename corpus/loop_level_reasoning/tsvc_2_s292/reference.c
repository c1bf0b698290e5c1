#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s292)(real *restrict a, const real *restrict b, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t im1 = N - 1;
  int64_t im2 = N - 2;
  for (int64_t i = 0; i < N; i++) {
    a[i] = (b[i] + b[im1] + b[im2]) * (real)0.333;
    im2 = im1;
    im1 = i;
  }
}
