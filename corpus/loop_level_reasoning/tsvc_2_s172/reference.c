#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s172)(real *restrict a, const real *restrict b, const int64_t N,
                               const int64_t n1, const int64_t n3, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = n1 - 1; i < N; i += n3) a[i] += b[i];
}
