#include <stdint.h>

static int s471s(void) { return 0; }

void HPCAB_KERNEL(tsvc_2_s471)(real *restrict b, const real *restrict c, const real *restrict d,
                               const real *restrict e, real *restrict x, const int64_t N,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    x[i] = b[i] + d[i] * d[i];
    (void)s471s();
    b[i] = c[i] + d[i] * e[i];
  }
}
