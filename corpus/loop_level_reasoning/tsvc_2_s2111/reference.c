#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s2111)(real *restrict aa, const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t j = 1; j < N; j++)
    for (int64_t i = 1; i < N; i++)
      aa[j * N + i] = (aa[j * N + i - 1] + aa[(j - 1) * N + i]) / (real)2.0;
}
