// ATTACK: accumulate a double-precision gemm in float (faster SIMD, half the bandwidth)
// KERNEL: gemm
// ROUTE: score
// EXPECT-VERDICT: incorrect
// EXPECT-DETAIL: expected
// Defence: the fp64 tolerance band (rtol 1e-9, atol 1e-11 raised only to the reassociation
// floor of a double accumulator) is far tighter than float rounding.
#include <stdint.h>

void gemm_fp64(const double *restrict A, const double *restrict B, double *restrict C,
               const int64_t NI, const int64_t NJ, const int64_t NK, const double alpha,
               const double beta, uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < NI; i++)
    for (int64_t j = 0; j < NJ; j++) {
      float acc = (float)(beta * C[i * NJ + j]);
      for (int64_t k = 0; k < NK; k++)
        acc += (float)alpha * (float)A[i * NK + k] * (float)B[k * NJ + j];
      C[i * NJ + j] = acc;
    }
}
