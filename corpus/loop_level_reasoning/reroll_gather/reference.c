#include <stdint.h>

void HPCAB_KERNEL(reroll_gather)(real *restrict a, const real *restrict b,
                                 const int64_t *restrict ip, const int64_t N,
                                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 6; i += 7) {
    a[i + 0] = a[i + 0] + b[ip[i + 0]] * (real)2.0;
    a[i + 1] = a[i + 1] + b[ip[i + 1]] * (real)2.0;
    a[i + 2] = a[i + 2] + b[ip[i + 2]] * (real)2.0;
    a[i + 3] = a[i + 3] + b[ip[i + 3]] * (real)2.0;
    a[i + 4] = a[i + 4] + b[ip[i + 4]] * (real)2.0;
    a[i + 5] = a[i + 5] + b[ip[i + 5]] * (real)2.0;
    a[i + 6] = a[i + 6] + b[ip[i + 6]] * (real)2.0;
  }
}
