/* tsvc_2_s000's reference.c as a submission writes it: both ABI functions, the loop as the
 * corpus reference computes it. Tests that submit "the reference" as a plain C file use this:
 * the corpus's reference.c is single-source (one function over `real`) and only the judge's
 * reference builds instantiate it (common/reference_build.h). */
#include <stdint.h>

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
}
