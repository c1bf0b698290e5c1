#include <stdint.h>

void tsvc_2_s317_fp64(const double *restrict a, double *restrict q, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double p = 1.0;
  for (int64_t i = 0; i < N / 2; i++) p *= a[i];
  q[0] = p;
}

void tsvc_2_s317_fp32(const float *restrict a, float *restrict q, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float p = 1.0f;
  for (int64_t i = 0; i < N / 2; i++) p *= a[i];
  q[0] = p;
}
