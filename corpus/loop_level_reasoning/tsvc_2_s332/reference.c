#include <stdint.h>

/* TSVC s332 returns only the value found; the index it also tracks is not part of the result. */
void tsvc_2_s332_fp64(const double *restrict a, double *restrict value, const int64_t N,
                      const double t, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double val = -1.0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > t) {
      val = a[i];
      break;
    }
  }
  value[0] = val;
}

void tsvc_2_s332_fp32(const float *restrict a, float *restrict value, const int64_t N,
                      const float t, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float val = -1.0f;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > t) {
      val = a[i];
      break;
    }
  }
  value[0] = val;
}
