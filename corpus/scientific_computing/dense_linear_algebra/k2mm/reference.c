#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void k2mm_fp64(const double *restrict A, const double *restrict B, const double *restrict C,
               double *restrict D, const int64_t NI, const int64_t NJ, const int64_t NK,
               const int64_t NL, const double alpha, const double beta, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  double *restrict tmp = hpcab_scratch(NI * NJ, sizeof(double));
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) tmp[i * NJ + j] = 0.0;
    for (int64_t k = 0; k < NK; k++) {
      const double a = alpha * A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) tmp[i * NJ + j] += a * B[k * NJ + j];
    }
  }
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t l = 0; l < NL; l++) D[i * NL + l] *= beta;
    for (int64_t j = 0; j < NJ; j++) {
      const double t = tmp[i * NJ + j];
      for (int64_t l = 0; l < NL; l++) D[i * NL + l] += t * C[j * NL + l];
    }
  }
  free(tmp);
}

void k2mm_fp32(const float *restrict A, const float *restrict B, const float *restrict C,
               float *restrict D, const int64_t NI, const int64_t NJ, const int64_t NK,
               const int64_t NL, const float alpha, const float beta, uint8_t *restrict workspace,
               const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  float *restrict tmp = hpcab_scratch(NI * NJ, sizeof(float));
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) tmp[i * NJ + j] = 0.0f;
    for (int64_t k = 0; k < NK; k++) {
      const float a = alpha * A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) tmp[i * NJ + j] += a * B[k * NJ + j];
    }
  }
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t l = 0; l < NL; l++) D[i * NL + l] *= beta;
    for (int64_t j = 0; j < NJ; j++) {
      const float t = tmp[i * NJ + j];
      for (int64_t l = 0; l < NL; l++) D[i * NL + l] += t * C[j * NL + l];
    }
  }
  free(tmp);
}
