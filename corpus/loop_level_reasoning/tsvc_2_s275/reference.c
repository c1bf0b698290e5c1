#include <stdint.h>

void tsvc_2_s275_fp64(double *restrict aa, const double *restrict bb, const double *restrict cc,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (aa[i] > 0.0) {
      for (int64_t j = 1; j < N; j++)
        aa[j * N + i] = aa[(j - 1) * N + i] + bb[j * N + i] * cc[j * N + i];
    }
  }
}

void tsvc_2_s275_fp32(float *restrict aa, const float *restrict bb, const float *restrict cc,
                      const int64_t N, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (aa[i] > 0.0f) {
      for (int64_t j = 1; j < N; j++)
        aa[j * N + i] = aa[(j - 1) * N + i] + bb[j * N + i] * cc[j * N + i];
    }
  }
}
