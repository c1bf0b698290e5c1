#include <stdint.h>

static real tsvc_2_s31111_group(const real *restrict p, const int64_t n) {
  real s = (real)0.0;
  for (int64_t k = 0; k < n; k++) s += p[k];
  return s;
}

void HPCAB_KERNEL(tsvc_2_s31111)(const real *restrict a, real *restrict sum, const int64_t N,
                                 uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real s = (real)0.0;
  for (int64_t i = 0; i < N; i += 4) s += tsvc_2_s31111_group(&a[i], N - i < 4 ? N - i : 4);
  sum[0] = s;
}
