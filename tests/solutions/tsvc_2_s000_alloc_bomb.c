// Memory-bomb fixture: tsvc_2_s000 that mallocs+touches 64 GiB (verdict `memory`); never run unsandboxed.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *volatile sink;

/* Allocates 64 chunks of 1 GiB and memsets each so the pages are really committed. A failed
 * malloc is not a clean way out: the NULL pointer is written through, so the process crashes. */
static void bomb(void) {
  const size_t chunk = (size_t)1 << 30;
  for (int i = 0; i < 64; i++) {
    char *p = malloc(chunk);
    if (p == NULL) {
      char *volatile q = p;
      q[0] = 1; /* SIGSEGV on allocation failure */
      continue;
    }
    memset(p, 0x5a, chunk);
    sink = p; /* never freed */
  }
}

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  bomb();
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  bomb();
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
}
