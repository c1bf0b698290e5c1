#include <stdint.h>

void tsvc_2_vdotr_fp64(const double *restrict a, const double *restrict b, double *restrict dot,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double dot_acc = 0.0;
  for (int64_t i = 0; i < N; i++) dot_acc += a[i] * b[i];
  dot[0] = dot_acc;
}

void tsvc_2_vdotr_fp32(const float *restrict a, const float *restrict b, float *restrict dot,
                       const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float dot_acc = 0.0f;
  for (int64_t i = 0; i < N; i++) dot_acc += a[i] * b[i];
  dot[0] = dot_acc;
}
