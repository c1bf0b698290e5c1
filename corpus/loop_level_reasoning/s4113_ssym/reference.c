#include <stdint.h>

void HPCAB_KERNEL(s4113_ssym)(real *restrict a, const real *restrict b, const real *restrict c,
                              const int64_t *restrict ip, const int64_t N, const int64_t SSYM,
                              uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N / SSYM; i++) a[ip[i * SSYM]] = b[ip[i * SSYM]] + c[i];
}
