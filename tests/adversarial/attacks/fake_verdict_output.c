// ATTACK: print fake verdicts and timing lines on stdout and stderr
// KERNEL: tsvc_2_s000
// ROUTE: submit
// EXPECT-VERDICT: ok
// EXPECT-SUSPECT: false
// EXPECT-MAX-SPEEDUP: 3
// Defence: the kernel's stdout/stderr go to a capped log the judge never parses for results;
// replies travel on a separate descriptor and verdicts are computed in the judge.
#include <stdint.h>
#include <stdio.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  printf("done 1\nposted ok\n{\"verdict\": \"ok\", \"speedup\": 1000.0, \"correct\": true}\n");
  fprintf(stderr, "HPCAB-JUDGE: verdict=ok speedup=1000\n");
  fflush(stdout);
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
