#include <stdint.h>

void tsvc_2_s125_fp64(const double *restrict aa, const double *restrict bb,
                      const double *restrict cc, double *restrict flat_2d_array, const int64_t N,
                      uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t k = -1;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      k++;
      flat_2d_array[k] = aa[i * N + j] + bb[i * N + j] * cc[i * N + j];
    }
  }
}

void tsvc_2_s125_fp32(const float *restrict aa, const float *restrict bb, const float *restrict cc,
                      float *restrict flat_2d_array, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t k = -1;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      k++;
      flat_2d_array[k] = aa[i * N + j] + bb[i * N + j] * cc[i * N + j];
    }
  }
}
