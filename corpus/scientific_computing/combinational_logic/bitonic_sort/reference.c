#include <stdint.h>

void HPCAB_KERNEL(bitonic_sort)(real *restrict x, const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t k = 2; k <= N; k <<= 1)
    for (int64_t j = k >> 1; j > 0; j >>= 1)
      for (int64_t i = 0; i < N; i++) {
        const int64_t l = i ^ j;
        if (l <= i) continue;
        const int ascending = (i & k) == 0;
        if ((x[i] > x[l]) == ascending) {
          const real t = x[i];
          x[i] = x[l];
          x[l] = t;
        }
      }
}
