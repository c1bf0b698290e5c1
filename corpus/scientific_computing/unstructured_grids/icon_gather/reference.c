#include <stdint.h>

void HPCAB_KERNEL(icon_gather)(const int32_t *restrict blk, const real *restrict coeff, const real *restrict field,
                               const int32_t *restrict idx, real *restrict out, const int64_t nblks,
                               const int64_t nlev, const int64_t nnbr, const int64_t nproma,
                               uint8_t *restrict workspace, const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t jb = 0; jb < nblks; jb++)
    for (int64_t jk = 0; jk < nlev; jk++)
      for (int64_t jc = 0; jc < nproma; jc++) {
        real s = 0;
        for (int64_t n = 0; n < nnbr; n++) {
          const int64_t c = (n * nblks + jb) * nproma + jc;
          s += coeff[(jb * nnbr + n) * nproma + jc] *
               field[((int64_t)blk[c] * nlev + jk) * nproma + idx[c]];
        }
        out[(jb * nlev + jk) * nproma + jc] = s;
      }
}
