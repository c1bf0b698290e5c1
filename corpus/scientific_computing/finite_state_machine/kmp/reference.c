#include <stdint.h>

void HPCAB_KERNEL(kmp)(int64_t *restrict count, int32_t *restrict fail, int64_t *restrict first,
                       const uint8_t *restrict pattern, const uint8_t *restrict text,
                       const int64_t M, const int64_t N, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* prefix function */
  fail[0] = 0;
  int32_t k = 0;
  for (int64_t j = 1; j < M; j++) {
    while (k > 0 && pattern[j] != pattern[k]) k = fail[k - 1];
    if (pattern[j] == pattern[k]) k++;
    fail[j] = k;
  }
  /* scan */
  int64_t n = 0, f = -1;
  int32_t q = 0;
  for (int64_t i = 0; i < N; i++) {
    while (q > 0 && text[i] != pattern[q]) q = fail[q - 1];
    if (text[i] == pattern[q]) q++;
    if (q == M) {
      if (f < 0) f = i - M + 1;
      n++;
      q = fail[q - 1];
    }
  }
  count[0] = n;
  first[0] = f;
}
