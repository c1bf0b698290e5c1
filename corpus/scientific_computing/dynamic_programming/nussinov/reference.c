#include <stdint.h>

void HPCAB_KERNEL(nussinov)(const int32_t *restrict seq, int32_t *restrict table, const int64_t N,
                            uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t k = 0; k < N * N; k++) table[k] = 0;
  for (int64_t i = N - 1; i >= 0; i--) {
    for (int64_t j = i + 1; j < N; j++) {
      int32_t best = table[i * N + j];
      if (j - 1 >= 0 && table[i * N + j - 1] > best) best = table[i * N + j - 1];
      if (i + 1 < N && table[(i + 1) * N + j] > best) best = table[(i + 1) * N + j];
      if (j - 1 >= 0 && i + 1 < N) {
        int32_t diag = table[(i + 1) * N + j - 1];
        if (i < j - 1) diag += (seq[i] + seq[j] == 3) ? 1 : 0;
        if (diag > best) best = diag;
      }
      for (int64_t k = i + 1; k < j; k++) {
        const int32_t s = table[i * N + k] + table[(k + 1) * N + j];
        if (s > best) best = s;
      }
      table[i * N + j] = best;
    }
  }
}
