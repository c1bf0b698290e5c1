#include <stdint.h>

void HPCAB_KERNEL(wavefront_2d)(real *restrict aa, const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 1; j < N; j++)
      aa[i * N + j] = (aa[i * N + j - 1] + aa[(i - 1) * N + j]) / (real)2.0;
}
