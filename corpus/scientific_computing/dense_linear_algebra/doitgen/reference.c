#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void doitgen_fp64(double *restrict A, const double *restrict C4, const int64_t NP, const int64_t NQ,
                  const int64_t NR, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  double *restrict sum = hpcab_scratch(NP, sizeof(double));
  for (int64_t r = 0; r < NR; r++)
    for (int64_t q = 0; q < NQ; q++) {
      double *restrict row = A + (r * NQ + q) * NP;
      for (int64_t p = 0; p < NP; p++) {
        double acc = 0.0;
        for (int64_t s = 0; s < NP; s++) acc += row[s] * C4[s * NP + p];
        sum[p] = acc;
      }
      for (int64_t p = 0; p < NP; p++) row[p] = sum[p];
    }
  free(sum);
}

void doitgen_fp32(float *restrict A, const float *restrict C4, const int64_t NP, const int64_t NQ,
                  const int64_t NR, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  float *restrict sum = hpcab_scratch(NP, sizeof(float));
  for (int64_t r = 0; r < NR; r++)
    for (int64_t q = 0; q < NQ; q++) {
      float *restrict row = A + (r * NQ + q) * NP;
      for (int64_t p = 0; p < NP; p++) {
        float acc = 0.0f;
        for (int64_t s = 0; s < NP; s++) acc += row[s] * C4[s * NP + p];
        sum[p] = acc;
      }
      for (int64_t p = 0; p < NP; p++) row[p] = sum[p];
    }
  free(sum);
}
