#include <stdint.h>

void tsvc_2_s315_fp64(const double *restrict a, int64_t *restrict index, double *restrict x,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double m = a[0];
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > m) {
      m = a[i];
      k = i;
    }
  }
  x[0] = m;
  index[0] = k;
}

void tsvc_2_s315_fp32(const float *restrict a, int64_t *restrict index, float *restrict x,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float m = a[0];
  int64_t k = 0;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > m) {
      m = a[i];
      k = i;
    }
  }
  x[0] = m;
  index[0] = k;
}
