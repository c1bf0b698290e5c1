#include <stdint.h>
#include <stdlib.h>

/* One zeroed N x N scratch array; the kernel cannot run without it. */
static void *adi_scratch(const int64_t N, const size_t elem) {
  void *ptr = calloc((size_t)N * (size_t)N, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void adi_fp64(double *restrict u, const int64_t N, const int64_t TSTEPS,
              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* PolyBench's temporaries v, p, q: scratch of the reference, not graded */
  double *restrict v = adi_scratch(N, sizeof(double));
  double *restrict p = adi_scratch(N, sizeof(double));
  double *restrict q = adi_scratch(N, sizeof(double));
  const double DX = 1.0 / (double)N;
  const double DY = 1.0 / (double)N;
  const double DT = 1.0 / (double)TSTEPS;
  const double B1 = 2.0;
  const double B2 = 1.0;
  const double mul1 = B1 * DT / (DX * DX);
  const double mul2 = B2 * DT / (DY * DY);
  const double a = -mul1 / 2.0;
  const double b = 1.0 + mul1;
  const double c = a;
  const double d = -mul2 / 2.0;
  const double e = 1.0 + mul2;
  const double f = d;
  const double e1 = 1.0 + 2.0 * d;
  const double e2 = 1.0 + 2.0 * a;
  for (int64_t t = 1; t <= TSTEPS; t++) {
    /* column sweep */
    for (int64_t i = 1; i < N - 1; i++) {
      v[0 * N + i] = 1.0;
      p[i * N + 0] = 0.0;
      q[i * N + 0] = v[0 * N + i];
      for (int64_t j = 1; j < N - 1; j++) {
        const double den = a * p[i * N + j - 1] + b;
        p[i * N + j] = -c / den;
        q[i * N + j] = (-d * u[j * N + i - 1] + e1 * u[j * N + i] - f * u[j * N + i + 1] -
                        a * q[i * N + j - 1]) /
                       den;
      }
      v[(N - 1) * N + i] = 1.0;
      for (int64_t j = N - 2; j >= 1; j--)
        v[j * N + i] = p[i * N + j] * v[(j + 1) * N + i] + q[i * N + j];
    }
    /* row sweep */
    for (int64_t i = 1; i < N - 1; i++) {
      u[i * N + 0] = 1.0;
      p[i * N + 0] = 0.0;
      q[i * N + 0] = u[i * N + 0];
      for (int64_t j = 1; j < N - 1; j++) {
        const double den = d * p[i * N + j - 1] + e;
        p[i * N + j] = -f / den;
        q[i * N + j] = (-a * v[(i - 1) * N + j] + e2 * v[i * N + j] - c * v[(i + 1) * N + j] -
                        d * q[i * N + j - 1]) /
                       den;
      }
      u[i * N + N - 1] = 1.0;
      for (int64_t j = N - 2; j >= 1; j--)
        u[i * N + j] = p[i * N + j] * u[i * N + j + 1] + q[i * N + j];
    }
  }
  free(v);
  free(p);
  free(q);
}

void adi_fp32(float *restrict u, const int64_t N, const int64_t TSTEPS,
              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* PolyBench's temporaries v, p, q: scratch of the reference, not graded */
  float *restrict v = adi_scratch(N, sizeof(float));
  float *restrict p = adi_scratch(N, sizeof(float));
  float *restrict q = adi_scratch(N, sizeof(float));
  const float DX = 1.0f / (float)N;
  const float DY = 1.0f / (float)N;
  const float DT = 1.0f / (float)TSTEPS;
  const float B1 = 2.0f;
  const float B2 = 1.0f;
  const float mul1 = B1 * DT / (DX * DX);
  const float mul2 = B2 * DT / (DY * DY);
  const float a = -mul1 / 2.0f;
  const float b = 1.0f + mul1;
  const float c = a;
  const float d = -mul2 / 2.0f;
  const float e = 1.0f + mul2;
  const float f = d;
  const float e1 = 1.0f + 2.0f * d;
  const float e2 = 1.0f + 2.0f * a;
  for (int64_t t = 1; t <= TSTEPS; t++) {
    /* column sweep */
    for (int64_t i = 1; i < N - 1; i++) {
      v[0 * N + i] = 1.0f;
      p[i * N + 0] = 0.0f;
      q[i * N + 0] = v[0 * N + i];
      for (int64_t j = 1; j < N - 1; j++) {
        const float den = a * p[i * N + j - 1] + b;
        p[i * N + j] = -c / den;
        q[i * N + j] = (-d * u[j * N + i - 1] + e1 * u[j * N + i] - f * u[j * N + i + 1] -
                        a * q[i * N + j - 1]) /
                       den;
      }
      v[(N - 1) * N + i] = 1.0f;
      for (int64_t j = N - 2; j >= 1; j--)
        v[j * N + i] = p[i * N + j] * v[(j + 1) * N + i] + q[i * N + j];
    }
    /* row sweep */
    for (int64_t i = 1; i < N - 1; i++) {
      u[i * N + 0] = 1.0f;
      p[i * N + 0] = 0.0f;
      q[i * N + 0] = u[i * N + 0];
      for (int64_t j = 1; j < N - 1; j++) {
        const float den = d * p[i * N + j - 1] + e;
        p[i * N + j] = -f / den;
        q[i * N + j] = (-a * v[(i - 1) * N + j] + e2 * v[i * N + j] - c * v[(i + 1) * N + j] -
                        d * q[i * N + j - 1]) /
                       den;
      }
      u[i * N + N - 1] = 1.0f;
      for (int64_t j = N - 2; j >= 1; j--)
        u[i * N + j] = p[i * N + j] * u[i * N + j + 1] + q[i * N + j];
    }
  }
  free(v);
  free(p);
  free(q);
}
