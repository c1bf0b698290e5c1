#include <stdint.h>

/* TSVC s332 returns only the value found; the index it also tracks is not part of the result. */
void HPCAB_KERNEL(tsvc_2_s332)(const real *restrict a, real *restrict value, const int64_t N,
                               const real t, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real val = -(real)1.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > t) {
      val = a[i];
      break;
    }
  }
  value[0] = val;
}
