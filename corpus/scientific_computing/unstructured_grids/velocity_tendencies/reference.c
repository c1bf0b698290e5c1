#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Zeroed scratch for `count` elements; the reference cannot run without it. */
static void *hpcab_scratch(const int64_t count, const size_t elem) {
  void *ptr = calloc(count > 0 ? (size_t)count : 1, elem);
  if (ptr == NULL) abort();
  return ptr;
}

void velocity_tendencies_fp64(
    const double *restrict c_lin_e, const double *restrict cells_aw_verts,
    const int32_t *restrict cells_edge_blk, const int32_t *restrict cells_edge_idx,
    const double *restrict coeff1_dwdz, const double *restrict coeff2_dwdz,
    const double *restrict coeff_gradekin, const double *restrict ddqz_z_full_e,
    const double *restrict ddqz_z_half, double *restrict ddt_vn_apc, double *restrict ddt_w_adv,
    const double *restrict ddxn_z_full, const double *restrict ddxt_z_full,
    const double *restrict e_bln_c_s, const int32_t *restrict edges_cell_blk,
    const int32_t *restrict edges_cell_idx, const int32_t *restrict edges_quad_blk,
    const int32_t *restrict edges_quad_idx, const int32_t *restrict edges_vertex_blk,
    const int32_t *restrict edges_vertex_idx, const double *restrict f_e,
    const double *restrict geofac_rot, const double *restrict inv_dual_edge_length,
    const double *restrict inv_primal_edge_length, double *restrict max_vcfl_dyn,
    const double *restrict rbf_vec_coeff_e, const double *restrict tangent_orientation,
    const int32_t *restrict verts_cell_blk, const int32_t *restrict verts_cell_idx,
    const int32_t *restrict verts_edge_blk, const int32_t *restrict verts_edge_idx,
    const double *restrict vn, double *restrict vn_ie, double *restrict vt,
    const double *restrict w, double *restrict w_concorr_c, const double *restrict wgtfac_c,
    const double *restrict wgtfac_e, const double *restrict wgtfacq_e,
    double *restrict z_kin_hor_e, double *restrict z_vt_ie, double *restrict z_w_concorr_me,
    const double dtime, const int64_t nblks_c, const int64_t nblks_e, const int64_t nblks_v,
    const int64_t nlev, const int64_t nproma, uint8_t *restrict workspace,
    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t np = nproma, L = nlev, L1 = nlev + 1;
  const int64_t nf = (nlev / 4 > 1 ? nlev / 4 : 1) - 1;
  const int64_t nrdmax = nlev / 3 > 3 ? nlev / 3 : 3;
  const double cfl_w_limit = 0.85 / dtime;
  /* upstream temporaries: the reference's own scratch */
  double *restrict z_w_v = hpcab_scratch(nblks_v * L1 * np, sizeof(double));
  double *restrict zeta = hpcab_scratch(nblks_v * L * np, sizeof(double));
  double *restrict z_v_grad_w = hpcab_scratch(nblks_e * L * np, sizeof(double));
  double *restrict z_ekinh = hpcab_scratch(nblks_c * L * np, sizeof(double));
  double *restrict mc = hpcab_scratch(nblks_c * L * np, sizeof(double));
  double *restrict z_w_con_c = hpcab_scratch(nblks_c * L1 * np, sizeof(double));
  double *restrict z_w_con_c_full = hpcab_scratch(nblks_c * L * np, sizeof(double));
/* connectivity table T[n][nblks][nproma]; field F[nblks][levels][nproma] */
#define CONN(T, nb, n, jb, jc) T[((n) * (nb) + (jb)) * np + (jc)]
#define FLD(F, nl, jb, jk, jc) F[((jb) * (nl) + (jk)) * np + (jc)]

  for (int64_t jb = 0; jb < nblks_v; jb++)
    for (int64_t jk = 0; jk < L1; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        double acc = 0.0;
        for (int n = 0; n < 6; n++)
          acc += cells_aw_verts[(jb * 6 + n) * np + jc] *
                 FLD(w, L1, CONN(verts_cell_blk, nblks_v, n, jb, jc), jk,
                     CONN(verts_cell_idx, nblks_v, n, jb, jc));
        FLD(z_w_v, L1, jb, jk, jc) = acc;
      }
  for (int64_t jb = 0; jb < nblks_v; jb++)
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        double acc = 0.0;
        for (int n = 0; n < 6; n++)
          acc += FLD(vn, L, CONN(verts_edge_blk, nblks_v, n, jb, jc), jk,
                     CONN(verts_edge_idx, nblks_v, n, jb, jc)) *
                 geofac_rot[(jb * 6 + n) * np + jc];
        FLD(zeta, L, jb, jk, jc) = acc;
      }
  for (int64_t jb = 0; jb < nblks_e; jb++) {
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        double acc = 0.0;
        for (int n = 0; n < 4; n++)
          acc += rbf_vec_coeff_e[(jb * np + jc) * 4 + n] *
                 FLD(vn, L, CONN(edges_quad_blk, nblks_e, n, jb, jc), jk,
                     CONN(edges_quad_idx, nblks_e, n, jb, jc));
        FLD(vt, L, jb, jk, jc) = acc;
      }
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const double v = FLD(vn, L, jb, jk, jc), t = FLD(vt, L, jb, jk, jc);
        if (jk >= 1) {
          const double we = FLD(wgtfac_e, L1, jb, jk, jc);
          FLD(vn_ie, L1, jb, jk, jc) = we * v + (1.0 - we) * FLD(vn, L, jb, jk - 1, jc);
          FLD(z_vt_ie, L, jb, jk, jc) = we * t + (1.0 - we) * FLD(vt, L, jb, jk - 1, jc);
        } else {
          FLD(vn_ie, L1, jb, 0, jc) = v;
          FLD(z_vt_ie, L, jb, 0, jc) = t;
        }
        FLD(z_kin_hor_e, L, jb, jk, jc) = 0.5 * (v * v + t * t);
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
        double ek = 0.0, m = 0.0;
        for (int n = 0; n < 3; n++) {
          const double e = e_bln_c_s[(jb * 3 + n) * np + jc];
          const int64_t eb = CONN(cells_edge_blk, nblks_c, n, jb, jc);
          const int64_t ei = CONN(cells_edge_idx, nblks_c, n, jb, jc);
          ek += e * FLD(z_kin_hor_e, L, eb, jk, ei);
          if (jk >= nf) m += e * FLD(z_w_concorr_me, L, eb, jk, ei);
        }
        FLD(z_ekinh, L, jb, jk, jc) = ek;
        FLD(mc, L, jb, jk, jc) = m;
      }
  double vmax = 0.0;
  const int64_t lo = (nrdmax - 2 > 3 ? nrdmax - 2 : 3) - 1, hi = nlev - 4;
  for (int64_t jb = 0; jb < nblks_c; jb++) {
    for (int64_t jk = nf + 1; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const double wc = FLD(wgtfac_c, L1, jb, jk, jc);
        FLD(w_concorr_c, L, jb, jk, jc) =
            wc * FLD(mc, L, jb, jk, jc) + (1.0 - wc) * FLD(mc, L, jb, jk - 1, jc);
      }
    for (int64_t jk = 0; jk < L1; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        double z = jk < L ? FLD(w, L1, jb, jk, jc) : 0.0;
        if (jk > nf && jk < L) z -= FLD(w_concorr_c, L, jb, jk, jc);
        if (jk >= lo && jk <= hi) {
          const double h = FLD(ddqz_z_half, L1, jb, jk, jc);
          if (fabs(z) > cfl_w_limit * h) {
            const double vcfl = z * dtime / h;
            if (fabs(vcfl) > vmax) vmax = fabs(vcfl);
            if (vcfl < -0.85)
              z = -(0.85 * h / dtime);
            else if (vcfl > 0.85)
              z = 0.85 * h / dtime;
          }
        }
        FLD(z_w_con_c, L1, jb, jk, jc) = z;
      }
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++)
        FLD(z_w_con_c_full, L, jb, jk, jc) =
            0.5 * (FLD(z_w_con_c, L1, jb, jk, jc) + FLD(z_w_con_c, L1, jb, jk + 1, jc));
    for (int64_t jk = 1; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const double c1 = FLD(coeff1_dwdz, L, jb, jk, jc), c2 = FLD(coeff2_dwdz, L, jb, jk, jc);
        const double adv = -FLD(z_w_con_c, L1, jb, jk, jc) *
                           (FLD(w, L1, jb, jk - 1, jc) * c1 - FLD(w, L1, jb, jk + 1, jc) * c2 +
                            FLD(w, L1, jb, jk, jc) * (c2 - c1));
        double acc = 0.0;
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
        const double cg0 = coeff_gradekin[(jb * 2 + 0) * np + jc];
        const double cg1 = coeff_gradekin[(jb * 2 + 1) * np + jc];
        const double clin = c_lin_e[(jb * 2 + 0) * np + jc] * FLD(z_w_con_c_full, L, c0b, jk, c0i) +
                            c_lin_e[(jb * 2 + 1) * np + jc] * FLD(z_w_con_c_full, L, c1b, jk, c1i);
        const double grad_ekin = FLD(z_kin_hor_e, L, jb, jk, jc) * (cg0 - cg1) +
                                 cg1 * FLD(z_ekinh, L, c1b, jk, c1i) -
                                 cg0 * FLD(z_ekinh, L, c0b, jk, c0i);
        const double zsum = FLD(zeta, L, v0b, jk, v0i) + FLD(zeta, L, v1b, jk, v1i);
        FLD(ddt_vn_apc, L, jb, jk, jc) =
            -(grad_ekin + FLD(vt, L, jb, jk, jc) * (f_e[jb * np + jc] + 0.5 * zsum) +
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

void velocity_tendencies_fp32(
    const float *restrict c_lin_e, const float *restrict cells_aw_verts,
    const int32_t *restrict cells_edge_blk, const int32_t *restrict cells_edge_idx,
    const float *restrict coeff1_dwdz, const float *restrict coeff2_dwdz,
    const float *restrict coeff_gradekin, const float *restrict ddqz_z_full_e,
    const float *restrict ddqz_z_half, float *restrict ddt_vn_apc, float *restrict ddt_w_adv,
    const float *restrict ddxn_z_full, const float *restrict ddxt_z_full,
    const float *restrict e_bln_c_s, const int32_t *restrict edges_cell_blk,
    const int32_t *restrict edges_cell_idx, const int32_t *restrict edges_quad_blk,
    const int32_t *restrict edges_quad_idx, const int32_t *restrict edges_vertex_blk,
    const int32_t *restrict edges_vertex_idx, const float *restrict f_e,
    const float *restrict geofac_rot, const float *restrict inv_dual_edge_length,
    const float *restrict inv_primal_edge_length, float *restrict max_vcfl_dyn,
    const float *restrict rbf_vec_coeff_e, const float *restrict tangent_orientation,
    const int32_t *restrict verts_cell_blk, const int32_t *restrict verts_cell_idx,
    const int32_t *restrict verts_edge_blk, const int32_t *restrict verts_edge_idx,
    const float *restrict vn, float *restrict vn_ie, float *restrict vt,
    const float *restrict w, float *restrict w_concorr_c, const float *restrict wgtfac_c,
    const float *restrict wgtfac_e, const float *restrict wgtfacq_e,
    float *restrict z_kin_hor_e, float *restrict z_vt_ie, float *restrict z_w_concorr_me,
    const float dtime, const int64_t nblks_c, const int64_t nblks_e, const int64_t nblks_v,
    const int64_t nlev, const int64_t nproma, uint8_t *restrict workspace,
    const int64_t workspace_size) {
  (void)workspace;
  (void)workspace_size;
  const int64_t np = nproma, L = nlev, L1 = nlev + 1;
  const int64_t nf = (nlev / 4 > 1 ? nlev / 4 : 1) - 1;
  const int64_t nrdmax = nlev / 3 > 3 ? nlev / 3 : 3;
  const float cfl_w_limit = 0.85f / dtime;
  /* upstream temporaries: the reference's own scratch */
  float *restrict z_w_v = hpcab_scratch(nblks_v * L1 * np, sizeof(float));
  float *restrict zeta = hpcab_scratch(nblks_v * L * np, sizeof(float));
  float *restrict z_v_grad_w = hpcab_scratch(nblks_e * L * np, sizeof(float));
  float *restrict z_ekinh = hpcab_scratch(nblks_c * L * np, sizeof(float));
  float *restrict mc = hpcab_scratch(nblks_c * L * np, sizeof(float));
  float *restrict z_w_con_c = hpcab_scratch(nblks_c * L1 * np, sizeof(float));
  float *restrict z_w_con_c_full = hpcab_scratch(nblks_c * L * np, sizeof(float));
/* connectivity table T[n][nblks][nproma]; field F[nblks][levels][nproma] */
#define CONN(T, nb, n, jb, jc) T[((n) * (nb) + (jb)) * np + (jc)]
#define FLD(F, nl, jb, jk, jc) F[((jb) * (nl) + (jk)) * np + (jc)]

  for (int64_t jb = 0; jb < nblks_v; jb++)
    for (int64_t jk = 0; jk < L1; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        float acc = 0.0f;
        for (int n = 0; n < 6; n++)
          acc += cells_aw_verts[(jb * 6 + n) * np + jc] *
                 FLD(w, L1, CONN(verts_cell_blk, nblks_v, n, jb, jc), jk,
                     CONN(verts_cell_idx, nblks_v, n, jb, jc));
        FLD(z_w_v, L1, jb, jk, jc) = acc;
      }
  for (int64_t jb = 0; jb < nblks_v; jb++)
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        float acc = 0.0f;
        for (int n = 0; n < 6; n++)
          acc += FLD(vn, L, CONN(verts_edge_blk, nblks_v, n, jb, jc), jk,
                     CONN(verts_edge_idx, nblks_v, n, jb, jc)) *
                 geofac_rot[(jb * 6 + n) * np + jc];
        FLD(zeta, L, jb, jk, jc) = acc;
      }
  for (int64_t jb = 0; jb < nblks_e; jb++) {
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        float acc = 0.0f;
        for (int n = 0; n < 4; n++)
          acc += rbf_vec_coeff_e[(jb * np + jc) * 4 + n] *
                 FLD(vn, L, CONN(edges_quad_blk, nblks_e, n, jb, jc), jk,
                     CONN(edges_quad_idx, nblks_e, n, jb, jc));
        FLD(vt, L, jb, jk, jc) = acc;
      }
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const float v = FLD(vn, L, jb, jk, jc), t = FLD(vt, L, jb, jk, jc);
        if (jk >= 1) {
          const float we = FLD(wgtfac_e, L1, jb, jk, jc);
          FLD(vn_ie, L1, jb, jk, jc) = we * v + (1.0f - we) * FLD(vn, L, jb, jk - 1, jc);
          FLD(z_vt_ie, L, jb, jk, jc) = we * t + (1.0f - we) * FLD(vt, L, jb, jk - 1, jc);
        } else {
          FLD(vn_ie, L1, jb, 0, jc) = v;
          FLD(z_vt_ie, L, jb, 0, jc) = t;
        }
        FLD(z_kin_hor_e, L, jb, jk, jc) = 0.5f * (v * v + t * t);
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
        float ek = 0.0f, m = 0.0f;
        for (int n = 0; n < 3; n++) {
          const float e = e_bln_c_s[(jb * 3 + n) * np + jc];
          const int64_t eb = CONN(cells_edge_blk, nblks_c, n, jb, jc);
          const int64_t ei = CONN(cells_edge_idx, nblks_c, n, jb, jc);
          ek += e * FLD(z_kin_hor_e, L, eb, jk, ei);
          if (jk >= nf) m += e * FLD(z_w_concorr_me, L, eb, jk, ei);
        }
        FLD(z_ekinh, L, jb, jk, jc) = ek;
        FLD(mc, L, jb, jk, jc) = m;
      }
  float vmax = 0.0f;
  const int64_t lo = (nrdmax - 2 > 3 ? nrdmax - 2 : 3) - 1, hi = nlev - 4;
  for (int64_t jb = 0; jb < nblks_c; jb++) {
    for (int64_t jk = nf + 1; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const float wc = FLD(wgtfac_c, L1, jb, jk, jc);
        FLD(w_concorr_c, L, jb, jk, jc) =
            wc * FLD(mc, L, jb, jk, jc) + (1.0f - wc) * FLD(mc, L, jb, jk - 1, jc);
      }
    for (int64_t jk = 0; jk < L1; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        float z = jk < L ? FLD(w, L1, jb, jk, jc) : 0.0f;
        if (jk > nf && jk < L) z -= FLD(w_concorr_c, L, jb, jk, jc);
        if (jk >= lo && jk <= hi) {
          const float h = FLD(ddqz_z_half, L1, jb, jk, jc);
          if (fabsf(z) > cfl_w_limit * h) {
            const float vcfl = z * dtime / h;
            if (fabsf(vcfl) > vmax) vmax = fabsf(vcfl);
            if (vcfl < -0.85f)
              z = -(0.85f * h / dtime);
            else if (vcfl > 0.85f)
              z = 0.85f * h / dtime;
          }
        }
        FLD(z_w_con_c, L1, jb, jk, jc) = z;
      }
    for (int64_t jk = 0; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++)
        FLD(z_w_con_c_full, L, jb, jk, jc) =
            0.5f * (FLD(z_w_con_c, L1, jb, jk, jc) + FLD(z_w_con_c, L1, jb, jk + 1, jc));
    for (int64_t jk = 1; jk < L; jk++)
      for (int64_t jc = 0; jc < np; jc++) {
        const float c1 = FLD(coeff1_dwdz, L, jb, jk, jc), c2 = FLD(coeff2_dwdz, L, jb, jk, jc);
        const float adv = -FLD(z_w_con_c, L1, jb, jk, jc) *
                           (FLD(w, L1, jb, jk - 1, jc) * c1 - FLD(w, L1, jb, jk + 1, jc) * c2 +
                            FLD(w, L1, jb, jk, jc) * (c2 - c1));
        float acc = 0.0f;
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
        const float cg0 = coeff_gradekin[(jb * 2 + 0) * np + jc];
        const float cg1 = coeff_gradekin[(jb * 2 + 1) * np + jc];
        const float clin = c_lin_e[(jb * 2 + 0) * np + jc] * FLD(z_w_con_c_full, L, c0b, jk, c0i) +
                            c_lin_e[(jb * 2 + 1) * np + jc] * FLD(z_w_con_c_full, L, c1b, jk, c1i);
        const float grad_ekin = FLD(z_kin_hor_e, L, jb, jk, jc) * (cg0 - cg1) +
                                 cg1 * FLD(z_ekinh, L, c1b, jk, c1i) -
                                 cg0 * FLD(z_ekinh, L, c0b, jk, c0i);
        const float zsum = FLD(zeta, L, v0b, jk, v0i) + FLD(zeta, L, v1b, jk, v1i);
        FLD(ddt_vn_apc, L, jb, jk, jc) =
            -(grad_ekin + FLD(vt, L, jb, jk, jc) * (f_e[jb * np + jc] + 0.5f * zsum) +
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
