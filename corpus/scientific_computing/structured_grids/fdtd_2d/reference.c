#include <stdint.h>

void fdtd_2d_fp64(double *restrict ex, double *restrict ey, const double *restrict fict,
                  double *restrict hz, const int64_t NX, const int64_t NY, const int64_t TMAX,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t t = 0; t < TMAX; t++) {
    for (int64_t j = 0; j < NY; j++) ey[j] = fict[t];
    for (int64_t i = 1; i < NX; i++)
      for (int64_t j = 0; j < NY; j++)
        ey[i * NY + j] = ey[i * NY + j] - 0.5 * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
    for (int64_t i = 0; i < NX; i++)
      for (int64_t j = 1; j < NY; j++)
        ex[i * NY + j] = ex[i * NY + j] - 0.5 * (hz[i * NY + j] - hz[i * NY + j - 1]);
    for (int64_t i = 0; i < NX - 1; i++)
      for (int64_t j = 0; j < NY - 1; j++)
        hz[i * NY + j] = hz[i * NY + j] - 0.7 * (ex[i * NY + j + 1] - ex[i * NY + j] +
                                                 ey[(i + 1) * NY + j] - ey[i * NY + j]);
  }
}

void fdtd_2d_fp32(float *restrict ex, float *restrict ey, const float *restrict fict,
                  float *restrict hz, const int64_t NX, const int64_t NY, const int64_t TMAX,
                  uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t t = 0; t < TMAX; t++) {
    for (int64_t j = 0; j < NY; j++) ey[j] = fict[t];
    for (int64_t i = 1; i < NX; i++)
      for (int64_t j = 0; j < NY; j++)
        ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
    for (int64_t i = 0; i < NX; i++)
      for (int64_t j = 1; j < NY; j++)
        ex[i * NY + j] = ex[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + j - 1]);
    for (int64_t i = 0; i < NX - 1; i++)
      for (int64_t j = 0; j < NY - 1; j++)
        hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * NY + j + 1] - ex[i * NY + j] +
                                                 ey[(i + 1) * NY + j] - ey[i * NY + j]);
  }
}
