#include <stdint.h>

void quasi_affine_mod_k_stripe_fp64(double *restrict a, const double *restrict b,
                                    const double *restrict c, const int64_t K, const int64_t N,
                                    uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (i % K == 0)
      a[i] = b[i] * 2.0;
    else
      a[i] = c[i];
  }
}

void quasi_affine_mod_k_stripe_fp32(float *restrict a, const float *restrict b,
                                    const float *restrict c, const int64_t K, const int64_t N,
                                    uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) {
    if (i % K == 0)
      a[i] = b[i] * 2.0f;
    else
      a[i] = c[i];
  }
}
