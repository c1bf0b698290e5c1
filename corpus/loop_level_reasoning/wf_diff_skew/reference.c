#include <stdint.h>

void HPCAB_KERNEL(wf_diff_skew)(real *restrict a, const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++)
    for (int64_t j = 1; j < N - 1; j++)
      a[i * N + j] = (real)0.25 * (a[i * N + j] + a[(i - 1) * N + j] + a[(i - 1) * N + j + 1] +
                             a[i * N + j - 1]);
}
