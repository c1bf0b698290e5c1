#include <stdint.h>

void HPCAB_KERNEL(s353_gather_reduction_unroll)(const real *restrict a, real *restrict b,
                                                const int64_t *restrict ip, const int64_t N,
                                                uint8_t *restrict workspace,
                                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s[7] = {0};
  int64_t i = 0;
  for (; i + 7 <= N; i += 7) {
    s[0] += a[ip[i + 0]];
    s[1] += a[ip[i + 1]];
    s[2] += a[ip[i + 2]];
    s[3] += a[ip[i + 3]];
    s[4] += a[ip[i + 4]];
    s[5] += a[ip[i + 5]];
    s[6] += a[ip[i + 6]];
  }
  real tail = (real)0.0;
  for (; i < N; i++) tail += a[ip[i]];
  real total = s[0];
  for (int k = 1; k < 7; k++) total += s[k];
  b[0] = total + tail;
}
