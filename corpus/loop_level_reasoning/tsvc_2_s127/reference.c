#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s127)(real *restrict a, const real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N / 2; i++) {
    j++;
    a[j] = b[i] + c[i] * d[i];
    j++;
    a[j] = b[i] + d[i] * e[i];
  }
}
