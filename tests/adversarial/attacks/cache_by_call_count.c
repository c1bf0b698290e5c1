// ATTACK: compute on the first call only, then replay the remembered answer (call counter)
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: incorrect
// EXPECT-DETAIL: expected
// Defence: fresh draw per call and every call checked (outputs <= 64 MiB).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int calls;
static double *cache;

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (calls++ > 0 && cache) {
    memcpy(a, cache, (size_t)N * sizeof *a);
    return;
  }
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  cache = malloc((size_t)N * sizeof *a);
  if (cache) memcpy(cache, a, (size_t)N * sizeof *a);
}
