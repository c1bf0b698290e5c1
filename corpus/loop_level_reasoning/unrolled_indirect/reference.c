#include <stdint.h>

void HPCAB_KERNEL(unrolled_indirect)(real *restrict a, const real *restrict b,
                                     const int64_t *restrict ip, const int64_t N, const real alpha,
                                     uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 3; i += 4) {
    a[i + 0] = a[i + 0] + alpha * b[ip[i + 0]];
    a[i + 1] = a[i + 1] + alpha * b[ip[i + 1]];
    a[i + 2] = a[i + 2] + alpha * b[ip[i + 2]];
    a[i + 3] = a[i + 3] + alpha * b[ip[i + 3]];
  }
}
