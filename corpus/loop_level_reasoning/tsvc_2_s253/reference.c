#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s253)(real *restrict a, const real *restrict b, real *restrict c,
                               const real *restrict d, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > b[i]) {
      const real s = a[i] - b[i] * d[i];
      c[i] += s;
      a[i] = s;
    }
  }
}
