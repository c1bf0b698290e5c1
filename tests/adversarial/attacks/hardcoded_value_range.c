// ATTACK: tuned to the public draws' value range (|b| < 1000), wrong beyond it
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: overfit
// EXPECT-DETAIL: hidden cases failed
// Defence: hidden variants draw other distributions and scales (large-scale uniform, small
// positive) from seeds under a separate secret key domain.
#include <stdint.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = (b[i] < 1000.0 && b[i] > -1000.0) ? b[i] + 1.0 : b[i];
}
