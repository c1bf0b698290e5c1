#include <math.h>
#include <stdint.h>

void tsvc_2_s3113_fp64(const double *restrict a, double *restrict max, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double m = fabs(a[0]);
  for (int64_t i = 0; i < N; i++)
    if (fabs(a[i]) > m) m = fabs(a[i]);
  max[0] = m;
}

void tsvc_2_s3113_fp32(const float *restrict a, float *restrict max, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float m = fabsf(a[0]);
  for (int64_t i = 0; i < N; i++)
    if (fabsf(a[i]) > m) m = fabsf(a[i]);
  max[0] = m;
}
