#include <stdint.h>

void tsvc_2_s279_fp64(double *restrict a, double *restrict b, double *restrict c,
                      const double *restrict d, const double *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0) goto update_c;
    b[i] = -b[i] + d[i] * d[i];
    if (b[i] <= a[i]) goto update_a;
    c[i] += d[i] * e[i];
    goto update_a;
  update_c:
    c[i] = -c[i] + e[i] * e[i];
  update_a:
    a[i] = b[i] + c[i] * d[i];
  }
}

void tsvc_2_s279_fp32(float *restrict a, float *restrict b, float *restrict c,
                      const float *restrict d, const float *restrict e, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (a[i] > 0.0f) goto update_c;
    b[i] = -b[i] + d[i] * d[i];
    if (b[i] <= a[i]) goto update_a;
    c[i] += d[i] * e[i];
    goto update_a;
  update_c:
    c[i] = -c[i] + e[i] * e[i];
  update_a:
    a[i] = b[i] + c[i] * d[i];
  }
}
