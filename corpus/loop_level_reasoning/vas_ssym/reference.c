#include <stdint.h>

void vas_ssym_fp64(double *restrict a, const double *restrict b, const int64_t *restrict ip,
                   const int64_t N, const int64_t SSYM, uint8_t *restrict workspace,
                   const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / SSYM; i++) a[ip[i * SSYM]] = b[i];
}

void vas_ssym_fp32(float *restrict a, const float *restrict b, const int64_t *restrict ip,
                   const int64_t N, const int64_t SSYM, uint8_t *restrict workspace,
                   const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / SSYM; i++) a[ip[i * SSYM]] = b[i];
}
