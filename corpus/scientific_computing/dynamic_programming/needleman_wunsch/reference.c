#include <stdint.h>

void HPCAB_KERNEL(needleman_wunsch)(const int32_t *restrict a, const int32_t *restrict b,
                                    int32_t *restrict score, const int32_t *restrict sub,
                                    const int64_t N, const int64_t penalty,
                                    uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t n1 = N + 1;
  const int32_t pen = (int32_t)penalty;
  for (int64_t i = 0; i <= N; i++) score[i * n1] = -(int32_t)i * pen;
  for (int64_t j = 0; j <= N; j++) score[j] = -(int32_t)j * pen;
  for (int64_t i = 1; i <= N; i++)
    for (int64_t j = 1; j <= N; j++) {
      int32_t best = score[(i - 1) * n1 + j - 1] + sub[a[i - 1] * 4 + b[j - 1]];
      const int32_t left = score[i * n1 + j - 1] - pen;
      const int32_t up = score[(i - 1) * n1 + j] - pen;
      if (left > best) best = left;
      if (up > best) best = up;
      score[i * n1 + j] = best;
    }
}
