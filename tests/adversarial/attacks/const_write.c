// ATTACK: use the const input as scratch space (write through a const pointer)
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: const pointer
// Defence: the runner snapshots the inputs before the call and compares them after it.
#include <stdint.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double *w = (double *)b;
  for (int64_t i = 0; i < N; i++) {
    w[i] += 1.0;
    a[i] = w[i];
  }
}
