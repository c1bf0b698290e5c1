#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s352)(const real *restrict a, const real *restrict b, real *restrict dot,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  int64_t i = 0;
  for (; i < N - 4; i += 5)
    s = s + a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2] + a[i + 3] * b[i + 3] +
        a[i + 4] * b[i + 4];
  for (; i < N; i++) s += a[i] * b[i];
  dot[0] = s;
}
