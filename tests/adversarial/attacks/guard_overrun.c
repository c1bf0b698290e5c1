// ATTACK: write past the end of the output array (an over-wide vector tail)
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: past its end
// Defence: every argument array sits between guard zones that are checked after each call.
#include <stdint.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  for (int64_t i = N; i < N + 3; i++) a[i] = 0.0;
}
