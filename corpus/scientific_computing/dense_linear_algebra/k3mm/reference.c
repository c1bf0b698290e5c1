#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void k3mm_fp64(const double *restrict A, const double *restrict B, const double *restrict C,
               const double *restrict D, double *restrict G, const int64_t NI, const int64_t NJ,
               const int64_t NK, const int64_t NL, const int64_t NM, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  double *restrict E = hpcab_scratch(NI * NJ, sizeof(double));
  double *restrict F = hpcab_scratch(NJ * NL, sizeof(double));
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) E[i * NJ + j] = 0.0;
    for (int64_t k = 0; k < NK; k++) {
      const double a = A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) E[i * NJ + j] += a * B[k * NJ + j];
    }
  }
  for (int64_t j = 0; j < NJ; j++) {
    for (int64_t l = 0; l < NL; l++) F[j * NL + l] = 0.0;
    for (int64_t m = 0; m < NM; m++) {
      const double c = C[j * NM + m];
      for (int64_t l = 0; l < NL; l++) F[j * NL + l] += c * D[m * NL + l];
    }
  }
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t l = 0; l < NL; l++) G[i * NL + l] = 0.0;
    for (int64_t j = 0; j < NJ; j++) {
      const double e = E[i * NJ + j];
      for (int64_t l = 0; l < NL; l++) G[i * NL + l] += e * F[j * NL + l];
    }
  }
  free(E);
  free(F);
}

void k3mm_fp32(const float *restrict A, const float *restrict B, const float *restrict C,
               const float *restrict D, float *restrict G, const int64_t NI, const int64_t NJ,
               const int64_t NK, const int64_t NL, const int64_t NM, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  float *restrict E = hpcab_scratch(NI * NJ, sizeof(float));
  float *restrict F = hpcab_scratch(NJ * NL, sizeof(float));
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) E[i * NJ + j] = 0.0f;
    for (int64_t k = 0; k < NK; k++) {
      const float a = A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) E[i * NJ + j] += a * B[k * NJ + j];
    }
  }
  for (int64_t j = 0; j < NJ; j++) {
    for (int64_t l = 0; l < NL; l++) F[j * NL + l] = 0.0f;
    for (int64_t m = 0; m < NM; m++) {
      const float c = C[j * NM + m];
      for (int64_t l = 0; l < NL; l++) F[j * NL + l] += c * D[m * NL + l];
    }
  }
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t l = 0; l < NL; l++) G[i * NL + l] = 0.0f;
    for (int64_t j = 0; j < NJ; j++) {
      const float e = E[i * NJ + j];
      for (int64_t l = 0; l < NL; l++) G[i * NL + l] += e * F[j * NL + l];
    }
  }
  free(E);
  free(F);
}
