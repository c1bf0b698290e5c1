#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s442)(real *restrict a, const real *restrict b, const real *restrict c,
                               const real *restrict d, const real *restrict e,
                               const int32_t *restrict indx, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    switch (indx[i]) {
      case 2:
        a[i] += c[i] * c[i];
        break;
      case 3:
        a[i] += d[i] * d[i];
        break;
      case 4:
        a[i] += e[i] * e[i];
        break;
      case 1:
      default:
        a[i] += b[i] * b[i];
        break;
    }
  }
}
