#include <stdint.h>

void dwt2d_fp64(double *restrict img, const int64_t N, const int64_t nlevels,
                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t l = 0; l < nlevels; l++) {
    const int64_t s = (int64_t)1 << l;
    const int64_t n = (N + s - 1) / s; /* samples per row or column at this level */
    /* rows */
    for (int64_t i = 0; i < n; i++) {
      double *row = img + i * s * N;
      for (int64_t j = 0; j + 1 < n; j += 2) {
        const double a = row[j * s], b = row[(j + 1) * s];
        row[j * s] = (a + b) * 0.5;
        row[(j + 1) * s] = (a - b) * 0.5;
      }
    }
    /* columns */
    for (int64_t i = 0; i + 1 < n; i += 2) {
      double *r0 = img + i * s * N;
      double *r1 = img + (i + 1) * s * N;
      for (int64_t j = 0; j < n; j++) {
        const double a = r0[j * s], b = r1[j * s];
        r0[j * s] = (a + b) * 0.5;
        r1[j * s] = (a - b) * 0.5;
      }
    }
  }
}

void dwt2d_fp32(float *restrict img, const int64_t N, const int64_t nlevels,
                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t l = 0; l < nlevels; l++) {
    const int64_t s = (int64_t)1 << l;
    const int64_t n = (N + s - 1) / s; /* samples per row or column at this level */
    /* rows */
    for (int64_t i = 0; i < n; i++) {
      float *row = img + i * s * N;
      for (int64_t j = 0; j + 1 < n; j += 2) {
        const float a = row[j * s], b = row[(j + 1) * s];
        row[j * s] = (a + b) * 0.5f;
        row[(j + 1) * s] = (a - b) * 0.5f;
      }
    }
    /* columns */
    for (int64_t i = 0; i + 1 < n; i += 2) {
      float *r0 = img + i * s * N;
      float *r1 = img + (i + 1) * s * N;
      for (int64_t j = 0; j < n; j++) {
        const float a = r0[j * s], b = r1[j * s];
        r0[j * s] = (a + b) * 0.5f;
        r1[j * s] = (a - b) * 0.5f;
      }
    }
  }
}
