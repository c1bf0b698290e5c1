#include <math.h>
#include <stdint.h>

void lavamd_fp64(double *restrict force, const int32_t *restrict nei, double *restrict pot,
                 const double *restrict qv, const double *restrict rv, const double alpha,
                 const int64_t max_neighbors, const int64_t n_boxes,
                 const int64_t particles_per_box, uint8_t *restrict workspace,
                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t ppb = particles_per_box;
  const double a2 = 2.0 * alpha * alpha;
  for (int64_t i = 0; i < n_boxes * ppb; i++) {
    pot[i] = 0.0;
    force[3 * i] = force[3 * i + 1] = force[3 * i + 2] = 0.0;
  }
  for (int64_t l = 0; l < n_boxes; l++) {
    const double *rA = rv + l * ppb * 4;
    double *pA = pot + l * ppb;
    double *fA = force + l * ppb * 3;
    for (int64_t k = 0; k < max_neighbors + 1; k++) {
      const int64_t other = k == 0 ? l : (int64_t)nei[l * max_neighbors + k - 1];
      const double *rB = rv + other * ppb * 4;
      const double *qB = qv + other * ppb;
      for (int64_t i = 0; i < ppb; i++) {
        for (int64_t j = 0; j < ppb; j++) {
          const double dot = rA[4 * i + 1] * rB[4 * j + 1] + rA[4 * i + 2] * rB[4 * j + 2] +
                           rA[4 * i + 3] * rB[4 * j + 3];
          const double r2 = rA[4 * i] + rB[4 * j] - dot;
          const double vij = exp(-(a2 * r2));
          const double fs = 2.0 * vij;
          pA[i] += qB[j] * vij;
          fA[3 * i] += qB[j] * (fs * (rA[4 * i + 1] - rB[4 * j + 1]));
          fA[3 * i + 1] += qB[j] * (fs * (rA[4 * i + 2] - rB[4 * j + 2]));
          fA[3 * i + 2] += qB[j] * (fs * (rA[4 * i + 3] - rB[4 * j + 3]));
        }
      }
    }
  }
}

void lavamd_fp32(float *restrict force, const int32_t *restrict nei, float *restrict pot,
                 const float *restrict qv, const float *restrict rv, const float alpha,
                 const int64_t max_neighbors, const int64_t n_boxes,
                 const int64_t particles_per_box, uint8_t *restrict workspace,
                 const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t ppb = particles_per_box;
  const float a2 = 2.0f * alpha * alpha;
  for (int64_t i = 0; i < n_boxes * ppb; i++) {
    pot[i] = 0.0f;
    force[3 * i] = force[3 * i + 1] = force[3 * i + 2] = 0.0f;
  }
  for (int64_t l = 0; l < n_boxes; l++) {
    const float *rA = rv + l * ppb * 4;
    float *pA = pot + l * ppb;
    float *fA = force + l * ppb * 3;
    for (int64_t k = 0; k < max_neighbors + 1; k++) {
      const int64_t other = k == 0 ? l : (int64_t)nei[l * max_neighbors + k - 1];
      const float *rB = rv + other * ppb * 4;
      const float *qB = qv + other * ppb;
      for (int64_t i = 0; i < ppb; i++) {
        for (int64_t j = 0; j < ppb; j++) {
          const float dot = rA[4 * i + 1] * rB[4 * j + 1] + rA[4 * i + 2] * rB[4 * j + 2] +
                           rA[4 * i + 3] * rB[4 * j + 3];
          const float r2 = rA[4 * i] + rB[4 * j] - dot;
          const float vij = expf(-(a2 * r2));
          const float fs = 2.0f * vij;
          pA[i] += qB[j] * vij;
          fA[3 * i] += qB[j] * (fs * (rA[4 * i + 1] - rB[4 * j + 1]));
          fA[3 * i + 1] += qB[j] * (fs * (rA[4 * i + 2] - rB[4 * j + 2]));
          fA[3 * i + 2] += qB[j] * (fs * (rA[4 * i + 3] - rB[4 * j + 3]));
        }
      }
    }
  }
}
