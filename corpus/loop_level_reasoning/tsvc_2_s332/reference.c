#include <stdint.h>

void tsvc_2_s332_fp64(const double *restrict a, int64_t *restrict index, double *restrict value,
                      const int64_t N, const double t, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t idx = -2;
  double val = -1.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > t) {
      idx = i;
      val = a[i];
      break;
    }
  }
  index[0] = idx;
  value[0] = val;
}

void tsvc_2_s332_fp32(const float *restrict a, int64_t *restrict index, float *restrict value,
                      const int64_t N, const float t, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t idx = -2;
  float val = -1.0f;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > t) {
      idx = i;
      val = a[i];
      break;
    }
  }
  index[0] = idx;
  value[0] = val;
}
