#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(arc_distance)(real *restrict distance, const real *restrict phi_1,
                                const real *restrict phi_2, const real *restrict theta_1,
                                const real *restrict theta_2, const int64_t N,
                                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    const real s_theta = sin((theta_2[i] - theta_1[i]) / (real)2.0);
    const real s_phi = sin((phi_2[i] - phi_1[i]) / (real)2.0);
    const real temp =
        s_theta * s_theta + cos(theta_1[i]) * cos(theta_2[i]) * (s_phi * s_phi);
    distance[i] = (real)2.0 * atan2(sqrt(temp), sqrt((real)1.0 - temp));
  }
}
