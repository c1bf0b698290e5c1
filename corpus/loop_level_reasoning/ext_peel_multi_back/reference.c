#include <stdint.h>

void HPCAB_KERNEL(ext_peel_multi_back)(real *restrict a, const real *restrict b, const int64_t N,
                                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    a[i] = b[i] * (real)2.0;
    if (i == N - 1) {
      a[N - 2] = a[N - 2] + (real)1.0;
    } else if (i == N - 2) {
      a[N - 3] = a[N - 3] + (real)1.0;
    }
  }
}
