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
static void accel_fp64(const double *restrict pos, const double *restrict mass, const double scale, double *restrict acc,
                       const int64_t N, const double G, const double softening) {
  const double soft2 = softening * softening;
  for (int64_t i = 0; i < N; i++) {
    double ax = 0.0, ay = 0.0, az = 0.0;
    for (int64_t j = 0; j < N; j++) {
      const double dx = pos[3 * j] - pos[3 * i];
      const double dy = pos[3 * j + 1] - pos[3 * i + 1];
      const double dz = pos[3 * j + 2] - pos[3 * i + 2];
      const double r2 = dx * dx + dy * dy + dz * dz + soft2;
      const double inv_r3 = 1.0 / (r2 * sqrt(r2));
      ax += dx * inv_r3 * (mass[j] * scale);
      ay += dy * inv_r3 * (mass[j] * scale);
      az += dz * inv_r3 * (mass[j] * scale);
    }
    acc[3 * i] = G * ax;
    acc[3 * i + 1] = G * ay;
    acc[3 * i + 2] = G * az;
  }
}

static void energy_fp64(const double *restrict pos, const double *restrict vel,
                        const double *restrict mass, const double scale, const int64_t N, const double G,
                        double *restrict ke, double *restrict pe) {
  double k = 0.0, p = 0.0;
  for (int64_t i = 0; i < N; i++)
    for (int64_t d = 0; d < 3; d++) k += (mass[i] * scale) * vel[3 * i + d] * vel[3 * i + d];
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = i + 1; j < N; j++) {
      const double dx = pos[3 * j] - pos[3 * i];
      const double dy = pos[3 * j + 1] - pos[3 * i + 1];
      const double dz = pos[3 * j + 2] - pos[3 * i + 2];
      const double r = sqrt(dx * dx + dy * dy + dz * dz);
      if (r > 0.0) p -= (mass[i] * scale) * (mass[j] * scale) / r;
    }
  *ke = 0.5 * k;
  *pe = G * p;
}

void nbody_fp64(double *restrict KE, double *restrict PE, const double *restrict mass,
                double *restrict pos, double *restrict vel, const double G, const int64_t N,
                const int64_t Nt, const double dt, const double softening, const double total_mass,
                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  double *restrict acc = hpcab_scratch(3 * N, sizeof(double));
  double msum = 0.0;
  for (int64_t i = 0; i < N; i++) msum += mass[i];
  const double scale = total_mass / msum; /* m_i = mass[i] * scale */
  /* centre-of-mass frame */
  double mtot = 0.0;
  for (int64_t i = 0; i < N; i++) mtot += mass[i] * scale;
  for (int64_t d = 0; d < 3; d++) {
    double mv = 0.0;
    for (int64_t i = 0; i < N; i++) mv += (mass[i] * scale) * vel[3 * i + d];
    const double vcom = (mv / (double)N) / (mtot / (double)N);
    for (int64_t i = 0; i < N; i++) vel[3 * i + d] -= vcom;
  }
  const double hdt = dt * 0.5;
  accel_fp64(pos, mass, scale, acc, N, G, softening);
  energy_fp64(pos, vel, mass, scale, N, G, &KE[0], &PE[0]);
  for (int64_t t = 0; t < Nt; t++) {
    for (int64_t i = 0; i < 3 * N; i++) vel[i] += acc[i] * hdt;
    for (int64_t i = 0; i < 3 * N; i++) pos[i] += vel[i] * dt;
    accel_fp64(pos, mass, scale, acc, N, G, softening);
    for (int64_t i = 0; i < 3 * N; i++) vel[i] += acc[i] * hdt;
    energy_fp64(pos, vel, mass, scale, N, G, &KE[t + 1], &PE[t + 1]);
  }
  free(acc);
}

static void accel_fp32(const float *restrict pos, const float *restrict mass, const float scale, float *restrict acc,
                       const int64_t N, const float G, const float softening) {
  const float soft2 = softening * softening;
  for (int64_t i = 0; i < N; i++) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int64_t j = 0; j < N; j++) {
      const float dx = pos[3 * j] - pos[3 * i];
      const float dy = pos[3 * j + 1] - pos[3 * i + 1];
      const float dz = pos[3 * j + 2] - pos[3 * i + 2];
      const float r2 = dx * dx + dy * dy + dz * dz + soft2;
      const float inv_r3 = 1.0f / (r2 * sqrtf(r2));
      ax += dx * inv_r3 * (mass[j] * scale);
      ay += dy * inv_r3 * (mass[j] * scale);
      az += dz * inv_r3 * (mass[j] * scale);
    }
    acc[3 * i] = G * ax;
    acc[3 * i + 1] = G * ay;
    acc[3 * i + 2] = G * az;
  }
}

static void energy_fp32(const float *restrict pos, const float *restrict vel,
                        const float *restrict mass, const float scale, const int64_t N, const float G,
                        float *restrict ke, float *restrict pe) {
  float k = 0.0f, p = 0.0f;
  for (int64_t i = 0; i < N; i++)
    for (int64_t d = 0; d < 3; d++) k += (mass[i] * scale) * vel[3 * i + d] * vel[3 * i + d];
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = i + 1; j < N; j++) {
      const float dx = pos[3 * j] - pos[3 * i];
      const float dy = pos[3 * j + 1] - pos[3 * i + 1];
      const float dz = pos[3 * j + 2] - pos[3 * i + 2];
      const float r = sqrtf(dx * dx + dy * dy + dz * dz);
      if (r > 0.0f) p -= (mass[i] * scale) * (mass[j] * scale) / r;
    }
  *ke = 0.5f * k;
  *pe = G * p;
}

void nbody_fp32(float *restrict KE, float *restrict PE, const float *restrict mass,
                float *restrict pos, float *restrict vel, const float G, const int64_t N,
                const int64_t Nt, const float dt, const float softening, const float total_mass,
                uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  float *restrict acc = hpcab_scratch(3 * N, sizeof(float));
  float msum = 0.0f;
  for (int64_t i = 0; i < N; i++) msum += mass[i];
  const float scale = total_mass / msum; /* m_i = mass[i] * scale */
  /* centre-of-mass frame */
  float mtot = 0.0f;
  for (int64_t i = 0; i < N; i++) mtot += mass[i] * scale;
  for (int64_t d = 0; d < 3; d++) {
    float mv = 0.0f;
    for (int64_t i = 0; i < N; i++) mv += (mass[i] * scale) * vel[3 * i + d];
    const float vcom = (mv / (float)N) / (mtot / (float)N);
    for (int64_t i = 0; i < N; i++) vel[3 * i + d] -= vcom;
  }
  const float hdt = dt * 0.5f;
  accel_fp32(pos, mass, scale, acc, N, G, softening);
  energy_fp32(pos, vel, mass, scale, N, G, &KE[0], &PE[0]);
  for (int64_t t = 0; t < Nt; t++) {
    for (int64_t i = 0; i < 3 * N; i++) vel[i] += acc[i] * hdt;
    for (int64_t i = 0; i < 3 * N; i++) pos[i] += vel[i] * dt;
    accel_fp32(pos, mass, scale, acc, N, G, softening);
    for (int64_t i = 0; i < 3 * N; i++) vel[i] += acc[i] * hdt;
    energy_fp32(pos, vel, mass, scale, N, G, &KE[t + 1], &PE[t + 1]);
  }
  free(acc);
}
