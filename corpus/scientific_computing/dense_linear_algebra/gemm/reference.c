#include <stdint.h>

void HPCAB_KERNEL(gemm)(const real *restrict A, const real *restrict B, real *restrict C,
                        const int64_t NI, const int64_t NJ, const int64_t NK, const real alpha,
                        const real beta, uint8_t *restrict workspace,
                        const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < NI; i++) {
    for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] *= beta;
    for (int64_t k = 0; k < NK; k++) {
      const real a = alpha * A[i * NK + k];
      for (int64_t j = 0; j < NJ; j++) C[i * NJ + j] += a * B[k * NJ + j];
    }
  }
}
