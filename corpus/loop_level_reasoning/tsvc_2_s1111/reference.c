#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s1111)(real *restrict a, const real *restrict b, const real *restrict c,
                                const real *restrict d, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / 2; i++)
    a[2 * i] = c[i] * b[i] + d[i] * b[i] + c[i] * c[i] + d[i] * b[i] + d[i] * c[i];
}
