// ATTACK: a load-time constructor forks a helper before the first call is even made
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: while the library was loaded
// Defence: the census runs right after the runner has loaded the library (constructors done).
#include <stdint.h>
#include <sys/prctl.h>
#include <unistd.h>

__attribute__((constructor)) static void early(void) {
  if (fork() == 0) {
    prctl(PR_SET_NAME, "hpcab-evil");
    for (;;) pause();
  }
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
