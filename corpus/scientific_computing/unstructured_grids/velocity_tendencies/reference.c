#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void HPCAB_KERNEL(velocity_tendencies)(
                                       const real *restrict c_lin_e, const real *restrict cells_aw_verts,
                                       const int32_t *restrict cells_edge_blk, const int32_t *restrict cells_edge_idx,
                                       const real *restrict coeff1_dwdz, const real *restrict coeff2_dwdz,
                                       const real *restrict coeff_gradekin, const real *restrict ddqz_z_full_e,
                                       const real *restrict ddqz_z_half, real *restrict ddt_vn_apc, real *restrict ddt_w_adv,
                                       const real *restrict ddxn_z_full, const real *restrict ddxt_z_full,
                                       const real *restrict e_bln_c_s, const int32_t *restrict edges_cell_blk,
                                       const int32_t *restrict edges_cell_idx, const int32_t *restrict edges_quad_blk,
                                       const int32_t *restrict edges_quad_idx, const int32_t *restrict edges_vertex_blk,
                                       const int32_t *restrict edges_vertex_idx, const real *restrict f_e,
                                       const real *restrict geofac_rot, const real *restrict inv_dual_edge_length,
                                       const real *restrict inv_primal_edge_length, real *restrict max_vcfl_dyn,
                                       const real *restrict rbf_vec_coeff_e, const real *restrict tangent_orientation,
                                       const int32_t *restrict verts_cell_blk, const int32_t *restrict verts_cell_idx,
                                       const int32_t *restrict verts_edge_blk, const int32_t *restrict verts_edge_idx,
                                       const real *restrict vn, real *restrict vn_ie, real *restrict vt,
                                       const real *restrict w, real *restrict w_concorr_c, const real *restrict wgtfac_c,
                                       const real *restrict wgtfac_e, const real *restrict wgtfacq_e,
                                       real *restrict z_kin_hor_e, real *restrict z_vt_ie, real *restrict z_w_concorr_me,
                                       const real dtime, const int64_t nblks_c, const int64_t nblks_e, const int64_t nblks_v,
                                       const int64_t nlev, const int64_t nproma, uint8_t *restrict workspace,
                                       const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t np = nproma, L = nlev, L1 = nlev + 1;
  const int64_t nf = (nlev / 4 > 1 ? nlev / 4 : 1) - 1;
  const int64_t nrdmax = nlev / 3 > 3 ? nlev / 3 : 3;
  const real cfl_w_limit = (real)0.85 / dtime;
  /* upstream temporaries: the reference's own scratch */
  real *restrict z_w_v = hpcab_scratch(nblks_v * L1 * np, sizeof(real));
  real *restrict zeta = hpcab_scratch(nblks_v * L * np, sizeof(real));
  real *restrict z_v_grad_w = hpcab_scratch(nblks_e * L * np, sizeof(real));
  real *restrict z_ekinh = hpcab_scratch(nblks_c * L * np, sizeof(real));
  real *restrict mc = hpcab_scratch(nblks_c * L * np, sizeof(real));
  real *restrict z_w_con_c = hpcab_scratch(nblks_c * L1 * np, sizeof(real));
  real *restrict z_w_con_c_full = hpcab_scratch(nblks_c * L * np, sizeof(real));
/* connectivity table T[n][nblks][nproma]; field F[nblks][levels][nproma] */
#define CONN(T, nb, n, jb, jc) T[((n) * (nb) + (jb)) * np + (jc)]
#define FLD(F, nl, jb, jk, jc) F[((jb) * (nl) + (jk)) * np + (jc)]

  for (int64_t jb = 0; jb < nblks_v; jb++)
    for (int64_t jk = 0; jk < L1; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        real acc = (real)0.0;
        for (int n = 0; n < 6; n++)
          acc += cells_aw_verts[(jb * 6 + n) * np + jc] *
                 FLD(w, L1, CONN(verts_cell_blk, nblks_v, n, jb, jc), jk,
                     CONN(verts_cell_idx, nblks_v, n, jb, jc));
        FLD(z_w_v, L1, jb, jk, jc) = acc;
      }
  for (int64_t jb = 0; jb < nblks_v; jb++)
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        real acc = (real)0.0;
        for (int n = 0; n < 6; n++)
          acc += FLD(vn, L, CONN(verts_edge_blk, nblks_v, n, jb, jc), jk,
                     CONN(verts_edge_idx, nblks_v, n, jb, jc)) *
                 geofac_rot[(jb * 6 + n) * np + jc];
        FLD(zeta, L, jb, jk, jc) = acc;
      }
  for (int64_t jb = 0; jb < nblks_e; jb++) {
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        real acc = (real)0.0;
        for (int n = 0; n < 4; n++)
          acc += rbf_vec_coeff_e[(jb * np + jc) * 4 + n] *
                 FLD(vn, L, CONN(edges_quad_blk, nblks_e, n, jb, jc), jk,
                     CONN(edges_quad_idx, nblks_e, n, jb, jc));
        FLD(vt, L, jb, jk, jc) = acc;
      }
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const real v = FLD(vn, L, jb, jk, jc), t = FLD(vt, L, jb, jk, jc);
        if (jk >= 1) {
          const real we = FLD(wgtfac_e, L1, jb, jk, jc);
          FLD(vn_ie, L1, jb, jk, jc) = we * v + ((real)1.0 - we) * FLD(vn, L, jb, jk - 1, jc);
          FLD(z_vt_ie, L, jb, jk, jc) = we * t + ((real)1.0 - we) * FLD(vt, L, jb, jk - 1, jc);
        } else {
          FLD(vn_ie, L1, jb, 0, jc) = v;
          FLD(z_vt_ie, L, jb, 0, jc) = t;
        }
        FLD(z_kin_hor_e, L, jb, jk, jc) = (real)0.5 * (v * v + t * t);
        if (jk >= nf)
          FLD(z_w_concorr_me, L, jb, jk, jc) =
              v * FLD(ddxn_z_full, L, jb, jk, jc) + t * FLD(ddxt_z_full, L, jb, jk, jc);
      }
    for (int64_t jc = 0; jc < np; jc++)
      FLD(vn_ie, L1, jb, L, jc) = wgtfacq_e[(jb * 3 + 0) * np + jc] * FLD(vn, L, jb, L - 1, jc) +
                                  wgtfacq_e[(jb * 3 + 1) * np + jc] * FLD(vn, L, jb, L - 2, jc) +
                                  wgtfacq_e[(jb * 3 + 2) * np + jc] * FLD(vn, L, jb, L - 3, jc);
  }
  for (int64_t jb = 0; jb < nblks_e; jb++)
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const int64_t c0b = CONN(edges_cell_blk, nblks_e, 0, jb, jc);
        const int64_t c0i = CONN(edges_cell_idx, nblks_e, 0, jb, jc);
        const int64_t c1b = CONN(edges_cell_blk, nblks_e, 1, jb, jc);
        const int64_t c1i = CONN(edges_cell_idx, nblks_e, 1, jb, jc);
        const int64_t v0b = CONN(edges_vertex_blk, nblks_e, 0, jb, jc);
        const int64_t v0i = CONN(edges_vertex_idx, nblks_e, 0, jb, jc);
        const int64_t v1b = CONN(edges_vertex_blk, nblks_e, 1, jb, jc);
        const int64_t v1i = CONN(edges_vertex_idx, nblks_e, 1, jb, jc);
        FLD(z_v_grad_w, L, jb, jk, jc) =
            FLD(vn_ie, L1, jb, jk, jc) * inv_dual_edge_length[jb * np + jc] *
                (FLD(w, L1, c0b, jk, c0i) - FLD(w, L1, c1b, jk, c1i)) +
            FLD(z_vt_ie, L, jb, jk, jc) * inv_primal_edge_length[jb * np + jc] *
                tangent_orientation[jb * np + jc] *
                (FLD(z_w_v, L1, v0b, jk, v0i) - FLD(z_w_v, L1, v1b, jk, v1i));
      }
  for (int64_t jb = 0; jb < nblks_c; jb++)
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        real ek = (real)0.0, m = (real)0.0;
        for (int n = 0; n < 3; n++) {
          const real e = e_bln_c_s[(jb * 3 + n) * np + jc];
          const int64_t eb = CONN(cells_edge_blk, nblks_c, n, jb, jc);
          const int64_t ei = CONN(cells_edge_idx, nblks_c, n, jb, jc);
          ek += e * FLD(z_kin_hor_e, L, eb, jk, ei);
          if (jk >= nf) m += e * FLD(z_w_concorr_me, L, eb, jk, ei);
        }
        FLD(z_ekinh, L, jb, jk, jc) = ek;
        FLD(mc, L, jb, jk, jc) = m;
      }
  real vmax = (real)0.0;
  const int64_t lo = (nrdmax - 2 > 3 ? nrdmax - 2 : 3) - 1, hi = nlev - 4;
  for (int64_t jb = 0; jb < nblks_c; jb++) {
    for (int64_t jk = nf + 1; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const real wc = FLD(wgtfac_c, L1, jb, jk, jc);
        FLD(w_concorr_c, L, jb, jk, jc) =
            wc * FLD(mc, L, jb, jk, jc) + ((real)1.0 - wc) * FLD(mc, L, jb, jk - 1, jc);
      }
    for (int64_t jk = 0; jk < L1; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        real z = jk < L ? FLD(w, L1, jb, jk, jc) : (real)0.0;
        if (jk > nf && jk < L) z -= FLD(w_concorr_c, L, jb, jk, jc);
        if (jk >= lo && jk <= hi) {
          const real h = FLD(ddqz_z_half, L1, jb, jk, jc);
          if (fabs(z) > cfl_w_limit * h) {
            const real vcfl = z * dtime / h;
            if (fabs(vcfl) > vmax) vmax = fabs(vcfl);
            if (vcfl < -(real)0.85)
              z = -((real)0.85 * h / dtime);
            else if (vcfl > (real)0.85)
              z = (real)0.85 * h / dtime;
          }
        }
        FLD(z_w_con_c, L1, jb, jk, jc) = z;
      }
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++)
        FLD(z_w_con_c_full, L, jb, jk, jc) =
            (real)0.5 * (FLD(z_w_con_c, L1, jb, jk, jc) + FLD(z_w_con_c, L1, jb, jk + 1, jc));
    for (int64_t jk = 1; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const real c1 = FLD(coeff1_dwdz, L, jb, jk, jc), c2 = FLD(coeff2_dwdz, L, jb, jk, jc);
        const real adv = -FLD(z_w_con_c, L1, jb, jk, jc) *
                           (FLD(w, L1, jb, jk - 1, jc) * c1 - FLD(w, L1, jb, jk + 1, jc) * c2 +
                            FLD(w, L1, jb, jk, jc) * (c2 - c1));
        real acc = (real)0.0;
        for (int n = 0; n < 3; n++)
          acc += e_bln_c_s[(jb * 3 + n) * np + jc] *
                 FLD(z_v_grad_w, L, CONN(cells_edge_blk, nblks_c, n, jb, jc), jk,
                     CONN(cells_edge_idx, nblks_c, n, jb, jc));
        FLD(ddt_w_adv, L - 1, jb, jk - 1, jc) = adv + acc;
      }
  }
  max_vcfl_dyn[0] = vmax;
  for (int64_t jb = 0; jb < nblks_e; jb++)
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const int64_t c0b = CONN(edges_cell_blk, nblks_e, 0, jb, jc);
        const int64_t c0i = CONN(edges_cell_idx, nblks_e, 0, jb, jc);
        const int64_t c1b = CONN(edges_cell_blk, nblks_e, 1, jb, jc);
        const int64_t c1i = CONN(edges_cell_idx, nblks_e, 1, jb, jc);
        const int64_t v0b = CONN(edges_vertex_blk, nblks_e, 0, jb, jc);
        const int64_t v0i = CONN(edges_vertex_idx, nblks_e, 0, jb, jc);
        const int64_t v1b = CONN(edges_vertex_blk, nblks_e, 1, jb, jc);
        const int64_t v1i = CONN(edges_vertex_idx, nblks_e, 1, jb, jc);
        const real cg0 = coeff_gradekin[(jb * 2 + 0) * np + jc];
        const real cg1 = coeff_gradekin[(jb * 2 + 1) * np + jc];
        const real clin = c_lin_e[(jb * 2 + 0) * np + jc] * FLD(z_w_con_c_full, L, c0b, jk, c0i) +
                            c_lin_e[(jb * 2 + 1) * np + jc] * FLD(z_w_con_c_full, L, c1b, jk, c1i);
        const real grad_ekin = FLD(z_kin_hor_e, L, jb, jk, jc) * (cg0 - cg1) +
                                 cg1 * FLD(z_ekinh, L, c1b, jk, c1i) -
                                 cg0 * FLD(z_ekinh, L, c0b, jk, c0i);
        const real zsum = FLD(zeta, L, v0b, jk, v0i) + FLD(zeta, L, v1b, jk, v1i);
        FLD(ddt_vn_apc, L, jb, jk, jc) =
            -(grad_ekin + FLD(vt, L, jb, jk, jc) * (f_e[jb * np + jc] + (real)0.5 * zsum) +
              clin * (FLD(vn_ie, L1, jb, jk, jc) - FLD(vn_ie, L1, jb, jk + 1, jc)) /
                  FLD(ddqz_z_full_e, L, jb, jk, jc));
      }
#undef CONN
#undef FLD
  free(z_w_v);
  free(zeta);
  free(z_v_grad_w);
  free(z_ekinh);
  free(mc);
  free(z_w_con_c);
  free(z_w_con_c_full);
}
