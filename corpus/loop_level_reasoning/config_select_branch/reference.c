#include <stdint.h>

void HPCAB_KERNEL(config_select_branch)(real *restrict out_a, real *restrict out_b,
                                        const real *restrict src, const int64_t K, const int64_t N,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (K > 0) {
      out_a[i] = src[i] * (real)2.0;
    } else {
      out_b[i] = src[i] + (real)1.0;
    }
  }
}
