#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s421)(const real *restrict a, real *restrict xx, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real *yy = xx;
  for (int64_t i = 0; i < N - 1; i++) xx[i] = yy[i + 1] + a[i];
}
