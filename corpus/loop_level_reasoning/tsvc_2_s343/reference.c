#include <stdint.h>

void tsvc_2_s343_fp64(const double *restrict aa, const double *restrict bb,
                      double *restrict flat_2d_array, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t k = -1;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      if (bb[j * N + i] > 0.0) {
        k++;
        flat_2d_array[k] = aa[j * N + i];
      }
    }
  }
}

void tsvc_2_s343_fp32(const float *restrict aa, const float *restrict bb,
                      float *restrict flat_2d_array, const int64_t N, uint8_t *restrict workspace,
                      const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  int64_t k = -1;
  for (int64_t i = 0; i < N; i++) {
    for (int64_t j = 0; j < N; j++) {
      if (bb[j * N + i] > 0.0f) {
        k++;
        flat_2d_array[k] = aa[j * N + i];
      }
    }
  }
}
