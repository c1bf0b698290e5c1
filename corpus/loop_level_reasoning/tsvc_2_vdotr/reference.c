#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_vdotr)(const real *restrict a, const real *restrict b, real *restrict dot,
                                const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real dot_acc = (real)0.0;
  for (int64_t i = 0; i < N; i++) dot_acc += a[i] * b[i];
  dot[0] = dot_acc;
}
