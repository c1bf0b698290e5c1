#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s276)(real *restrict a, const real *restrict b, const real *restrict c,
                               const real *restrict d, const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t mid = N / 2;
  for (int64_t i = 0; i < N; i++) {
    if (i + 1 < mid)
      a[i] += b[i] * c[i];
    else
      a[i] += b[i] * d[i];
  }
}
