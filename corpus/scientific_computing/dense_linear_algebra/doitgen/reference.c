#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void HPCAB_KERNEL(doitgen)(real *restrict A, const real *restrict C4, const int64_t NP,
                           const int64_t NQ, const int64_t NR, uint8_t *restrict workspace,
                           const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  /* upstream temporaries: the reference's own scratch, not graded */
  real *restrict sum = hpcab_scratch(NP, sizeof(real));
  for (int64_t r = 0; r < NR; r++)
    for (int64_t q = 0; q < NQ; q++) {
      real *restrict row = A + (r * NQ + q) * NP;
      for (int64_t p = 0; p < NP; p++) {
        real acc = (real)0.0;
        for (int64_t s = 0; s < NP; s++) acc += row[s] * C4[s * NP + p];
        sum[p] = acc;
      }
      for (int64_t p = 0; p < NP; p++) row[p] = sum[p];
    }
  free(sum);
}
