// ATTACK: a constructor writes a layout line of its own onto the reply channel (fd 3), pointing
// the judge's in-memory output read at a buffer the library fills later, then computes
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: rejected
// EXPECT-DETAIL: reply channel
// Defence: the runner tells its layout before the library is loaded, so the judge already has
// the genuine one; a second layout arrives where only hello may: a protocol violation by the
// candidate, rejected before any call.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static double later[1 << 20];

__attribute__((constructor)) static void forge(void) {
  char line[96];
  int n = snprintf(line, sizeof line, "layout a %lx 8000\n", (unsigned long)(uintptr_t)later);
  if (n > 0) (void)!write(3, line, (size_t)n);
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  memcpy(later, a, (size_t)(N < (1 << 20) ? N : (1 << 20)) * sizeof(double));
}
