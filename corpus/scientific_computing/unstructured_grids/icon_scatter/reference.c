#include <stdint.h>

void HPCAB_KERNEL(icon_scatter)(const real *restrict coeff, const real *restrict field, real *restrict out,
                                const int32_t *restrict tgt, const int64_t nblks, const int64_t nlev,
                                const int64_t nnbr, const int64_t nproma, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t ncell = nblks * nproma;
  for (int64_t i = 0; i < nblks * nlev * nproma; i++) out[i] = 0;
  for (int64_t jb = 0; jb < nblks; jb++)
    for (int64_t n = 0; n < nnbr; n++)
      for (int64_t jc = 0; jc < nproma; jc++) {
        const int64_t t = tgt[(n * nblks + jb) * nproma + jc] % ncell;
        const int64_t tb = t / nproma, tc = t % nproma;
        const real w = coeff[(jb * nnbr + n) * nproma + jc];
        for (int64_t jk = 0; jk < nlev; jk++)
          out[(tb * nlev + jk) * nproma + tc] += w * field[(jb * nlev + jk) * nproma + jc];
      }
}
