// ATTACK: behave when checked, cheat when timed: answer right on the calls a judge that checks
// only some calls would look at (the warm-up, the first two and every fifth), skip the work
// otherwise
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: incorrect
// EXPECT-DETAIL: expected
// Defence: every call's outputs are checked when they are small (<= 64 MiB); above that the
// last call and three chosen by a CSPRNG in the judge after the calls ran, so no call count or
// sentinel tells the candidate which calls count.
#include <math.h>
#include <stdint.h>

static int calls;

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int k = calls++;
  // A poisoned output (NaN) is what a checking judge would leave; this judge always poisons.
  const int looks_checked = k < 3 || k % 5 == 0 || isnan(a[0]) == 0;
  if (!looks_checked) return;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
