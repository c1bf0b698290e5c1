#include <stdint.h>

void HPCAB_KERNEL(disjoint_halves_gather)(real *restrict a, const real *restrict c, const int64_t N,
                                          uint8_t *restrict workspace,
                                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / 2; i++) {
    a[i] = a[i] + a[i + N / 2] * c[i];
  }
}
