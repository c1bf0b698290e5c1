#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s351)(real *restrict a, const real *restrict b, const real *restrict c,
                               const int64_t N, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const real alpha = c[0];
  int64_t i = 0;
  for (; i < N - 4; i += 5) {
    a[i] += alpha * b[i];
    a[i + 1] += alpha * b[i + 1];
    a[i + 2] += alpha * b[i + 2];
    a[i + 3] += alpha * b[i + 3];
    a[i + 4] += alpha * b[i + 4];
  }
  for (; i < N; i++) a[i] += alpha * b[i];
}
