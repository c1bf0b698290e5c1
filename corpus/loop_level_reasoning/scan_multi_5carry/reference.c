#include <stdint.h>

void HPCAB_KERNEL(scan_multi_5carry)(real *restrict acc, const real *restrict delta,
                                     const int64_t N, uint8_t *restrict workspace,
                                     const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    acc[0 * N + i] = acc[0 * N + i - 1] + delta[0 * N + i];
    acc[1 * N + i] = acc[1 * N + i - 1] + delta[1 * N + i];
    acc[2 * N + i] = acc[2 * N + i - 1] + delta[2 * N + i];
    acc[3 * N + i] = acc[3 * N + i - 1] + delta[3 * N + i];
    acc[4 * N + i] = acc[4 * N + i - 1] + delta[4 * N + i];
  }
}
