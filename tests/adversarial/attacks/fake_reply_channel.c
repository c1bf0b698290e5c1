// ATTACK: write a fake "done 1" straight onto the runner's reply channel (fd 3), then compute
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: reply channel
// Defence: the judge's clock stops only when /proc shows the runner blocked on its next
// command, and the runner's genuine reply then arrives out of turn: a protocol violation by the
// candidate, rejected.
#include <stdint.h>
#include <unistd.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  (void)!write(3, "done 1\n", 7);
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
