#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void HPCAB_KERNEL(k3mm)(const real *restrict A, const real *restrict B, const real *restrict C,
                        const real *restrict D, real *restrict G, const int64_t NI,
                        const int64_t NJ, const int64_t NK, const int64_t NL, const int64_t NM,
                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  real *restrict E = hpcab_scratch(NI * NJ, sizeof(real));
  real *restrict F = hpcab_scratch(NJ * NL, sizeof(real));
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) E[i * NJ + j] = (real)0.0;
    for (int64_t k = 0; k < NK; k++) {
      const real a = A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) E[i * NJ + j] += a * B[k * NJ + j];
    }
  }
  for (int64_t j = 0; j < NJ; j++) {
    for (int64_t l = 0; l < NL; l++) F[j * NL + l] = (real)0.0;
    for (int64_t m = 0; m < NM; m++) {
      const real c = C[j * NM + m];
      for (int64_t l = 0; l < NL; l++) F[j * NL + l] += c * D[m * NL + l];
    }
  }
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t l = 0; l < NL; l++) G[i * NL + l] = (real)0.0;
    for (int64_t j = 0; j < NJ; j++) {
      const real e = E[i * NJ + j];
      for (int64_t l = 0; l < NL; l++) G[i * NL + l] += e * F[j * NL + l];
    }
  }
  free(E);
  free(F);
}
