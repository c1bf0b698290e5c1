// ATTACK: right only at the public preset's size (N = 512), garbage elsewhere
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: overfit|incorrect
// EXPECT-DETAIL: hidden cases failed|expected
// Defence: /submit checks hidden variants at secret fuzzed sizes; public ok + hidden wrong is
// `overfit`, never credited. With timed sizes chosen by time (the judge's default; make test
// runs the presets) the public configuration itself runs at the calibrated size: `incorrect`.
#include <stdint.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = N == 512 ? b[i] + 1.0 : 0.0;
}
