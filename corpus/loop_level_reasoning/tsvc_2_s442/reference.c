#include <stdint.h>

void tsvc_2_s442_fp64(double *restrict a, const double *restrict b, const double *restrict c,
                      const double *restrict d, const double *restrict e,
                      const int32_t *restrict indx, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    switch (indx[i]) {
      case 2:
        a[i] += c[i] * c[i];
        break;
      case 3:
        a[i] += d[i] * d[i];
        break;
      case 4:
        a[i] += e[i] * e[i];
        break;
      case 1:
      default:
        a[i] += b[i] * b[i];
        break;
    }
  }
}

void tsvc_2_s442_fp32(float *restrict a, const float *restrict b, const float *restrict c,
                      const float *restrict d, const float *restrict e,
                      const int32_t *restrict indx, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    switch (indx[i]) {
      case 2:
        a[i] += c[i] * c[i];
        break;
      case 3:
        a[i] += d[i] * d[i];
        break;
      case 4:
        a[i] += e[i] * e[i];
        break;
      case 1:
      default:
        a[i] += b[i] * b[i];
        break;
    }
  }
}
