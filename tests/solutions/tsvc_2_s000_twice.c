// tsvc_2_s000 doing exactly twice the reference's work, honestly: the validity benchmark's "truly 2x
// slower" candidate (scripts/validity.py). Correct output, no tricks; the judge should credit it
// about 0.5.
#include <stdint.h>

/*
 * Two full passes of the reference loop a[i] = b[i] + 1. Between them an empty asm statement
 * with a "memory" clobber tells the compiler that any memory may have been read or changed:
 * the first pass's stores must be done before it (they may be read), and the second pass must
 * reload b and store a again (b may have changed), so neither pass can be folded away or
 * merged with the other. Both passes stay plain loops that GCC vectorizes exactly like the
 * reference (no volatile accesses, which would serialize them and cost far more than 2x).
 * Check: `objdump -d` of the built library shows two copies of the vector loop per precision.
 */

void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
  __asm__ __volatile__("" ::: "memory");
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;
}

void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,
               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
  __asm__ __volatile__("" ::: "memory");
  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;
}
