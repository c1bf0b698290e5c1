// ATTACK: #include the judge's environment through /proc at build time
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: build_error
// EXPECT-DETAIL: environ
// Defence: the compiler's own PID namespace has no judge process in its /proc.
#include <stdint.h>

static const char stolen[] = {
#include "/proc/@JUDGE_PID@/environ"
};

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0 + 0 * stolen[0];
}
