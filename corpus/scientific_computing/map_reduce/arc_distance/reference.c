#include <math.h>
#include <stdint.h>

void arc_distance_fp64(double *restrict distance, const double *restrict phi_1,
                       const double *restrict phi_2, const double *restrict theta_1,
                       const double *restrict theta_2, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const double s_theta = sin((theta_2[i] - theta_1[i]) / 2.0);
    const double s_phi = sin((phi_2[i] - phi_1[i]) / 2.0);
    const double temp =
        s_theta * s_theta + cos(theta_1[i]) * cos(theta_2[i]) * (s_phi * s_phi);
    distance[i] = 2.0 * atan2(sqrt(temp), sqrt(1.0 - temp));
  }
}

void arc_distance_fp32(float *restrict distance, const float *restrict phi_1,
                       const float *restrict phi_2, const float *restrict theta_1,
                       const float *restrict theta_2, const int64_t N,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const float s_theta = sinf((theta_2[i] - theta_1[i]) / 2.0f);
    const float s_phi = sinf((phi_2[i] - phi_1[i]) / 2.0f);
    const float temp =
        s_theta * s_theta + cosf(theta_1[i]) * cosf(theta_2[i]) * (s_phi * s_phi);
    distance[i] = 2.0f * atan2f(sqrtf(temp), sqrtf(1.0f - temp));
  }
}
