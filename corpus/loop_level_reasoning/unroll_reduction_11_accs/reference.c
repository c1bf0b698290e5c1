#include <stdint.h>

void HPCAB_KERNEL(unroll_reduction_11_accs)(const real *restrict a, real *restrict out,
                                            const int64_t N, uint8_t *restrict workspace,
                                            const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s[11] = {0};
  int64_t i = 0;
  for (; i + 11 <= N; i += 11) {
    s[0] += a[i + 0];
    s[1] += a[i + 1];
    s[2] += a[i + 2];
    s[3] += a[i + 3];
    s[4] += a[i + 4];
    s[5] += a[i + 5];
    s[6] += a[i + 6];
    s[7] += a[i + 7];
    s[8] += a[i + 8];
    s[9] += a[i + 9];
    s[10] += a[i + 10];
  }
  real tail = (real)0.0;
  for (; i < N; i++) tail += a[i];
  real total = s[0];
  for (int k = 1; k < 11; k++) total += s[k];
  out[0] = total + tail;
}
