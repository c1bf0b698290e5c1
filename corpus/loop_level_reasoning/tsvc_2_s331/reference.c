#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s331)(const real *restrict a, int64_t *restrict j, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t last = -1;
  for (int64_t i = 0; i < N; i++)
    if (a[i] < (real)0.0) last = i;
  j[0] = last;
}
