// ATTACK: write before the start of the output array
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: before its start
// Defence: the leading guard zone of every argument array.
#include <stdint.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  a[-2] = 42.0;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
