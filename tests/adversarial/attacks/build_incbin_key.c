// ATTACK: embed the judge's key file into the library at build time (.incbin)
// KERNEL: tsvc_2_s000
// ROUTE: score
// EXPECT-VERDICT: build_error
// EXPECT-DETAIL: secret.key
// Defence: the compiler runs in the same sandbox: the state dir does not exist in there.
#include <stdint.h>

__asm__(".section .rodata\n.global stolen_key\nstolen_key:\n.incbin \"@KEY_FILE@\"\n.text\n");

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}
