#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s128)(real *restrict a, real *restrict b, const real *restrict c,
                               const real *restrict d, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = -1;
  for (int64_t i = 0; i < N / 2; i++) {
    const int64_t k = j + 1;
    a[i] = b[k] - d[i];
    j = k + 1;
    b[k] = a[i] + c[k];
  }
}
