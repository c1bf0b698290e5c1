#include <stdint.h>

void HPCAB_KERNEL(indirect_gather_3nbr)(const real *restrict field, const int64_t *restrict idx,
                                        real *restrict out, const real *restrict w, const int64_t N,
                                        uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t c = 0; c < N; c++) {
    out[c] = w[c * 3 + 0] * field[idx[c * 3 + 0]] + w[c * 3 + 1] * field[idx[c * 3 + 1]] +
             w[c * 3 + 2] * field[idx[c * 3 + 2]];
  }
}
