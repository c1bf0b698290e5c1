// Timeout fixture: valid-ABI tsvc_2_s000 that never returns (the judge must kill it: verdict `timeout`).
#include <stdint.h>

/* A volatile counter keeps the loop from being optimized out (an empty side-effect-free loop
 * could be assumed to terminate). */
static volatile uint64_t spin;

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  for (;;) spin++;
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
  for (;;) spin++;
}
