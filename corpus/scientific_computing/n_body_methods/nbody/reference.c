#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

/* The masses are m_i = mass[i] * scale with scale = total_mass / sum(mass); acc is the
   acceleration buffer of the leapfrog steps. */
static void accel(const real *restrict pos, const real *restrict mass, const real scale, real *restrict acc,
                       const int64_t N, const real G, const real softening) {
  const real soft2 = softening * softening;
  for (int64_t i = 0; i < N; i++) {
    real ax = (real)0.0, ay = (real)0.0, az = (real)0.0;
    for (int64_t j = 0; j < N; j++) {
      const real dx = pos[3 * j] - pos[3 * i];
      const real dy = pos[3 * j + 1] - pos[3 * i + 1];
      const real dz = pos[3 * j + 2] - pos[3 * i + 2];
      const real r2 = dx * dx + dy * dy + dz * dz + soft2;
      const real inv_r3 = (real)1.0 / (r2 * sqrt(r2));
      ax += dx * inv_r3 * (mass[j] * scale);
      ay += dy * inv_r3 * (mass[j] * scale);
      az += dz * inv_r3 * (mass[j] * scale);
    }
    acc[3 * i] = G * ax;
    acc[3 * i + 1] = G * ay;
    acc[3 * i + 2] = G * az;
  }
}

static void energy(const real *restrict pos, const real *restrict vel,
                        const real *restrict mass, const real scale, const int64_t N, const real G,
                        real *restrict ke, real *restrict pe) {
  real k = (real)0.0, p = (real)0.0;
  for (int64_t i = 0; i < N; i++)
    for (int64_t d = 0; d < 3; d++) k += (mass[i] * scale) * vel[3 * i + d] * vel[3 * i + d];
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = i + 1; j < N; j++) {
      const real dx = pos[3 * j] - pos[3 * i];
      const real dy = pos[3 * j + 1] - pos[3 * i + 1];
      const real dz = pos[3 * j + 2] - pos[3 * i + 2];
      const real r = sqrt(dx * dx + dy * dy + dz * dz);
      if (r > (real)0.0) p -= (mass[i] * scale) * (mass[j] * scale) / r;
    }
  *ke = (real)0.5 * k;
  *pe = G * p;
}

void HPCAB_KERNEL(nbody)(real *restrict KE, real *restrict PE, const real *restrict mass,
                         real *restrict pos, real *restrict vel, const real G, const int64_t N,
                         const int64_t Nt, const real dt, const real softening, const real total_mass,
                         uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  real *restrict acc = hpcab_scratch(3 * N, sizeof(real));
  real msum = (real)0.0;
  for (int64_t i = 0; i < N; i++) msum += mass[i];
  const real scale = total_mass / msum; /* m_i = mass[i] * scale */
  /* centre-of-mass frame */
  real mtot = (real)0.0;
  for (int64_t i = 0; i < N; i++) mtot += mass[i] * scale;
  for (int64_t d = 0; d < 3; d++) {
    real mv = (real)0.0;
    for (int64_t i = 0; i < N; i++) mv += (mass[i] * scale) * vel[3 * i + d];
    const real vcom = (mv / (real)N) / (mtot / (real)N);
    for (int64_t i = 0; i < N; i++) vel[3 * i + d] -= vcom;
  }
  const real hdt = dt * (real)0.5;
  accel(pos, mass, scale, acc, N, G, softening);
  energy(pos, vel, mass, scale, N, G, &KE[0], &PE[0]);
  for (int64_t t = 0; t < Nt; t++) {
    for (int64_t i = 0; i < 3 * N; i++) vel[i] += acc[i] * hdt;
    for (int64_t i = 0; i < 3 * N; i++) pos[i] += vel[i] * dt;
    accel(pos, mass, scale, acc, N, G, softening);
    for (int64_t i = 0; i < 3 * N; i++) vel[i] += acc[i] * hdt;
    energy(pos, vel, mass, scale, N, G, &KE[t + 1], &PE[t + 1]);
  }
  free(acc);
}
