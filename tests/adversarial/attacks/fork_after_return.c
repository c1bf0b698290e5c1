// ATTACK: fork a helper process that keeps running after the call (named hpcab-evil)
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: running after the call returned
// Defence: after every call the judge lists the sandbox's processes through /proc (the kernel's
// view, not the runner's) and rejects anything besides bubblewrap and the runner; the sandbox
// tree is then killed (the test also checks that no hpcab-evil process survives the grade).
#include <stdint.h>
#include <sys/prctl.h>
#include <unistd.h>

static int forked;

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  if (!forked) {
    forked = 1;
    if (fork() == 0) {
      prctl(PR_SET_NAME, "hpcab-evil");
      for (;;) pause();
    }
  }
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
