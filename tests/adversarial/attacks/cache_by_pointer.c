// ATTACK: result cache keyed by the input pointer (the runner reuses its buffers across calls)
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: incorrect
// EXPECT-DETAIL: expected
// Defence: every call gets a fresh value draw at the same sizes (SPEC §5.7), so a cache keyed
// on the pointer returns the previous call's answer, and every call's outputs are checked.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const double *last_b;
static double *cache;

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (b == last_b && cache) {
    memcpy(a, cache, (size_t)N * sizeof *a);
    return;
  }
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  free(cache);
  cache = malloc((size_t)N * sizeof *a);
  if (cache) memcpy(cache, a, (size_t)N * sizeof *a);
  last_b = b;
}
