#include <stdint.h>

void HPCAB_KERNEL(zekin_gather)(const real *restrict e_bln_c_s, const int32_t *restrict ieblk,
                                const int32_t *restrict ieidx, const real *restrict vn, const real *restrict vt,
                                real *restrict z_ekinh, real *restrict z_kin_hor_e, const int64_t NB,
                                const int64_t NLEV, const int64_t NPROMA, uint8_t *restrict workspace,
                                const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  for (int64_t i = 0; i < NB * NLEV * NPROMA; i++)
    z_kin_hor_e[i] = (real)0.5 * (vn[i] * vn[i] + vt[i] * vt[i]);
  for (int64_t jb = 0; jb < NB; jb++)
    for (int64_t jk = 0; jk < NLEV; jk++)
      for (int64_t jc = 0; jc < NPROMA; jc++) {
        real s = 0;
        for (int64_t e = 0; e < 3; e++) {
          const int64_t c = (e * NB + jb) * NPROMA + jc;
          s += e_bln_c_s[(jb * 3 + e) * NPROMA + jc] *
               z_kin_hor_e[((int64_t)ieblk[c] * NLEV + jk) * NPROMA + ieidx[c]];
        }
        z_ekinh[(jb * NLEV + jk) * NPROMA + jc] = s;
      }
}
