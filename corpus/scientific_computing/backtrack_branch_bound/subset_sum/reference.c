#include <stdint.h>

/* subsets of values[i..N-1] that add exactly `need`; rest[i] = values[i] + ... + values[N-1] */
static int64_t search(const int32_t *restrict values, const int64_t *restrict rest,
                      const int64_t N, const int64_t i, const int64_t need) {
  if (need == 0) return 1;
  if (i == N || rest[i] < need) return 0;
  int64_t total = 0;
  if (values[i] <= need) total += search(values, rest, N, i + 1, need - values[i]);
  total += search(values, rest, N, i + 1, need);
  return total;
}

void HPCAB_KERNEL(subset_sum)(int64_t *restrict count, const int32_t *restrict values, const int64_t N,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t rest[65]; /* N <= 64 */
  rest[N] = 0;
  for (int64_t i = N - 1; i >= 0; i--) rest[i] = rest[i + 1] + values[i];
  count[0] = search(values, rest, N, 0, rest[0] / 2);
}
