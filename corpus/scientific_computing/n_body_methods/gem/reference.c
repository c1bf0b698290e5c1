#include <math.h>
#include <stdint.h>

void gem_fp64(const double *restrict apos, const double *restrict charge,
              double *restrict phi, const double *restrict pos, const double diel,
              const double kappa, const int64_t natoms, const int64_t npoints,
              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < npoints; i++) {
    const double x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
    double acc = 0.0;
    for (int64_t j = 0; j < natoms; j++) {
      const double dx = x - apos[3 * j], dy = y - apos[3 * j + 1], dz = z - apos[3 * j + 2];
      const double r = sqrt(dx * dx + dy * dy + dz * dz);
      acc += charge[j] * exp(-kappa * r) / (diel * r);
    }
    phi[i] = acc;
  }
}

void gem_fp32(const float *restrict apos, const float *restrict charge,
              float *restrict phi, const float *restrict pos, const float diel,
              const float kappa, const int64_t natoms, const int64_t npoints,
              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < npoints; i++) {
    const float x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
    float acc = 0.0f;
    for (int64_t j = 0; j < natoms; j++) {
      const float dx = x - apos[3 * j], dy = y - apos[3 * j + 1], dz = z - apos[3 * j + 2];
      const float r = sqrtf(dx * dx + dy * dy + dz * dz);
      acc += charge[j] * expf(-kappa * r) / (diel * r);
    }
    phi[i] = acc;
  }
}
