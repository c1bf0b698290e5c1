#include <stdint.h>

void azimint_naive_fp64(const double *restrict data, const double *restrict radius,
                        double *restrict res, const int64_t N, const int64_t npt,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  double rmax = radius[0];
  for (int64_t j = 1; j < N; j++)
    if (radius[j] > rmax) rmax = radius[j];
  for (int64_t i = 0; i < npt; i++) {
    const double r1 = rmax * (double)i / (double)npt;
    const double r2 = rmax * (double)(i + 1) / (double)npt;
    double s = 0.0;
    int64_t count = 0;
    for (int64_t j = 0; j < N; j++)
      if (r1 <= radius[j] && radius[j] < r2) {
        s += data[j];
        count++;
      }
    res[i] = count > 0 ? s / (double)count : 0.0;
  }
}

void azimint_naive_fp32(const float *restrict data, const float *restrict radius,
                        float *restrict res, const int64_t N, const int64_t npt,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  float rmax = radius[0];
  for (int64_t j = 1; j < N; j++)
    if (radius[j] > rmax) rmax = radius[j];
  for (int64_t i = 0; i < npt; i++) {
    const float r1 = rmax * (float)i / (float)npt;
    const float r2 = rmax * (float)(i + 1) / (float)npt;
    float s = 0.0f;
    int64_t count = 0;
    for (int64_t j = 0; j < N; j++)
      if (r1 <= radius[j] && radius[j] < r2) {
        s += data[j];
        count++;
      }
    res[i] = count > 0 ? s / (float)count : 0.0f;
  }
}
