#include <math.h>
#include <stdint.h>

void HPCAB_KERNEL(lavamd)(real *restrict force, const int32_t *restrict nei, real *restrict pot,
                          const real *restrict qv, const real *restrict rv, const real alpha,
                          const int64_t max_neighbors, const int64_t n_boxes,
                          const int64_t particles_per_box, uint8_t *restrict workspace,
                          const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t ppb = particles_per_box;
  const real a2 = (real)2.0 * alpha * alpha;
  for (int64_t i = 0; i < n_boxes * ppb; i++) {
    pot[i] = (real)0.0;
    force[3 * i] = force[3 * i + 1] = force[3 * i + 2] = (real)0.0;
  }
  for (int64_t l = 0; l < n_boxes; l++) {
    const real *rA = rv + l * ppb * 4;
    real *pA = pot + l * ppb;
    real *fA = force + l * ppb * 3;
    for (int64_t k = 0; k < max_neighbors + 1; k++) {
      const int64_t other = k == 0 ? l : (int64_t)nei[l * max_neighbors + k - 1];
      const real *rB = rv + other * ppb * 4;
      const real *qB = qv + other * ppb;
      for (int64_t i = 0; i < ppb; i++) {
        for (int64_t j = 0; j < ppb; j++) {
          const real dot = rA[4 * i + 1] * rB[4 * j + 1] + rA[4 * i + 2] * rB[4 * j + 2] +
                           rA[4 * i + 3] * rB[4 * j + 3];
          const real r2 = rA[4 * i] + rB[4 * j] - dot;
          const real vij = exp(-(a2 * r2));
          const real fs = (real)2.0 * vij;
          pA[i] += qB[j] * vij;
          fA[3 * i] += qB[j] * (fs * (rA[4 * i + 1] - rB[4 * j + 1]));
          fA[3 * i + 1] += qB[j] * (fs * (rA[4 * i + 2] - rB[4 * j + 2]));
          fA[3 * i + 2] += qB[j] * (fs * (rA[4 * i + 3] - rB[4 * j + 3]));
        }
      }
    }
  }
}
