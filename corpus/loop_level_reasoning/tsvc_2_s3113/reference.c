#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s3113)(const real *restrict a, real *restrict max, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real m = fabs(a[0]);
  for (int64_t i = 0; i < N; i++)
    if (fabs(a[i]) > m) m = fabs(a[i]);
  max[0] = m;
}
