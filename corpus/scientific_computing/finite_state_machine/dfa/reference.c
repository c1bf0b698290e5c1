#include <stdint.h>

void HPCAB_KERNEL(dfa)(const uint8_t *restrict accept, int64_t *restrict accepted,
                       const int32_t *restrict delta, int32_t *restrict final,
                       const uint8_t *restrict text, int64_t *restrict visits, const int64_t N,
                       const int64_t NA, const int64_t NS, uint8_t *restrict workspace,
                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t s = 0; s < NS; s++) visits[s] = 0;
  int64_t hits = 0;
  int32_t state = 0;
  for (int64_t i = 0; i < N; i++) {
    state = delta[state * NA + text[i]];
    visits[state]++;
    if (accept[state]) hits++;
  }
  accepted[0] = hits;
  final[0] = state;
}
