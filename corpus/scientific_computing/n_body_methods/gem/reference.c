#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(gem)(const real *restrict apos, const real *restrict charge,
                       real *restrict phi, const real *restrict pos, const real diel,
                       const real kappa, const int64_t natoms, const int64_t npoints,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < npoints; i++) {
    const real x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
    real acc = (real)0.0;
    for (int64_t j = 0; j < natoms; j++) {
      const real dx = x - apos[3 * j], dy = y - apos[3 * j + 1], dz = z - apos[3 * j + 2];
      const real r = sqrt(dx * dx + dy * dy + dz * dz);
      acc += charge[j] * exp(-kappa * r) / (diel * r);
    }
    phi[i] = acc;
  }
}
