#include <stdint.h>

void HPCAB_KERNEL(tsvc_2_s1351)(real *restrict a, const real *restrict b, const real *restrict c,
                                const int64_t N, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  real *restrict pa = a;
  const real *restrict pb = b;
  const real *restrict pc = c;
  for (int64_t i = 0; i < N; i++) {
    *pa = *pb + *pc;
    pa++;
    pb++;
    pc++;
  }
}
