#include <stdint.h>

void HPCAB_KERNEL(smith_waterman)(int32_t *restrict H, const int32_t *restrict a,
                                  const int32_t *restrict b, const int32_t *restrict sub, const int64_t N,
                                  const int64_t gap, uint8_t *restrict workspace,
                                  const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n1 = N + 1;
  const int32_t g = (int32_t)gap;
  for (int64_t i = 0; i <= N; i++) H[i * n1] = 0;
  for (int64_t j = 0; j <= N; j++) H[j] = 0;
  for (int64_t i = 1; i <= N; i++)
    for (int64_t j = 1; j <= N; j++) {
      int32_t best = H[(i - 1) * n1 + j - 1] + sub[a[i - 1] * 4 + b[j - 1]];
      if (best < 0) best = 0;
      const int32_t up = H[(i - 1) * n1 + j] - g;
      const int32_t left = H[i * n1 + j - 1] - g;
      if (up > best) best = up;
      if (left > best) best = left;
      H[i * n1 + j] = best;
    }
}
