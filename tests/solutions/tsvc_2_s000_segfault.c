// Crash fixture: valid-ABI tsvc_2_s000 that writes through a NULL pointer (verdict `crash`).
#include <stdint.h>

/* volatile: the compiler may neither drop the store nor turn it into a trap instruction. */
static double *volatile null_fp64 = 0;
static float *volatile null_fp32 = 0;

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  null_fp64[0] = 1.0; /* SIGSEGV */
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
  null_fp32[0] = 1.0f; /* SIGSEGV */
}
