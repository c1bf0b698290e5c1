#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s122)(real *restrict a, const real *restrict b, const int64_t N,
                               const int64_t n1, const int64_t n3, uint8_t *restrict workspace,
                               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t j = 1;
  int64_t k = 0;
  for (int64_t i = n1 - 1; i < N; i += n3) {
    k += j;
    a[i] += b[N - k];
  }
}
