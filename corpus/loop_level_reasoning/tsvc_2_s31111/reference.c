#include <stdint.h>

static double tsvc_2_s31111_group_fp64(const double *restrict p, const int64_t n) {
  double s = 0.0;
  for (int64_t k = 0; k < n; k++) s += p[k];
  return s;
}

void tsvc_2_s31111_fp64(const double *restrict a, double *restrict sum, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double s = 0.0;
  for (int64_t i = 0; i < N; i += 4) s += tsvc_2_s31111_group_fp64(&a[i], N - i < 4 ? N - i : 4);
  sum[0] = s;
}

static float tsvc_2_s31111_group_fp32(const float *restrict p, const int64_t n) {
  float s = 0.0f;
  for (int64_t k = 0; k < n; k++) s += p[k];
  return s;
}

void tsvc_2_s31111_fp32(const float *restrict a, float *restrict sum, const int64_t N,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float s = 0.0f;
  for (int64_t i = 0; i < N; i += 4) s += tsvc_2_s31111_group_fp32(&a[i], N - i < 4 ? N - i : 4);
  sum[0] = s;
}
