#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s121)(real *restrict a, const real *restrict b, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N - 1; i++) {
    const int64_t j = i + 1;
    a[i] = a[j] + b[i];
  }
}
