#include <stdint.h>

void HPCAB_KERNEL(scan_conditional)(const real *restrict delta, const int64_t *restrict mask,
                                    real *restrict out, const int64_t N,
                                    uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 1; i < N; i++) {
    if (mask[i] > 0)
      out[i] = out[i - 1] + delta[i];
    else
      out[i] = out[i - 1];
  }
}
