import numpy as np


def _gat(A, idx, blk, n):
    """A[blk[n], :, idx[n]] for every owner point: (owner blocks, levels of A, nproma)."""
    lev = np.arange(A.shape[1])
    return A[blk[n][:, None, :], lev[None, :, None], idx[n][:, None, :]]


def velocity_tendencies(c_lin_e, cells_aw_verts, cells_edge_blk, cells_edge_idx, coeff1_dwdz,
                        coeff2_dwdz, coeff_gradekin, ddqz_z_full_e, ddqz_z_half, ddt_vn_apc,
                        ddt_w_adv, ddxn_z_full, ddxt_z_full, e_bln_c_s, edges_cell_blk,
                        edges_cell_idx, edges_quad_blk, edges_quad_idx, edges_vertex_blk,
                        edges_vertex_idx, f_e, geofac_rot, inv_dual_edge_length,
                        inv_primal_edge_length, max_vcfl_dyn, rbf_vec_coeff_e,
                        tangent_orientation, verts_cell_blk, verts_cell_idx, verts_edge_blk,
                        verts_edge_idx, vn, vn_ie, vt, w, w_concorr_c, wgtfac_c, wgtfac_e,
                        wgtfacq_e, z_kin_hor_e, z_vt_ie, z_w_concorr_me, dtime, nblks_c,
                        nblks_e, nblks_v, nlev, nproma):
    """ICON velocity_tendencies (istep 1, no deep atmosphere, no extra diffusion)."""
    t = vn.dtype.type
    one = t(1)
    half = t(0.5)
    nf = max(1, nlev // 4) - 1          # 0-based first flat level
    nrdmax = max(3, nlev // 3)
    cfl_w_limit = t(0.85) / dtime

    # z_w_v: w interpolated to vertices (all nlev+1 half levels)
    z_w_v = np.zeros((nblks_v, nlev + 1, nproma), dtype=vn.dtype)
    for n in range(6):
        z_w_v += cells_aw_verts[:, n, None, :] * _gat(w, verts_cell_idx, verts_cell_blk, n)
    # zeta: vorticity at vertices
    zeta = np.zeros((nblks_v, nlev, nproma), dtype=vn.dtype)
    for n in range(6):
        zeta += _gat(vn, verts_edge_idx, verts_edge_blk, n) * geofac_rot[:, n, None, :]
    # vt: tangential wind from the 4 quad edges
    acc = np.zeros((nblks_e, nlev, nproma), dtype=vn.dtype)
    for n in range(4):
        acc += rbf_vec_coeff_e[:, None, :, n] * _gat(vn, edges_quad_idx, edges_quad_blk, n)
    vt[:] = acc
    we = wgtfac_e[:, 1:nlev, :]
    vn_ie[:, 1:nlev, :] = we * vn[:, 1:, :] + (one - we) * vn[:, :-1, :]
    z_kin_hor_e[:] = half * (vn * vn + vt * vt)
    z_vt_ie[:, 1:, :] = we * vt[:, 1:, :] + (one - we) * vt[:, :-1, :]
    z_w_concorr_me[:, nf:, :] = vn[:, nf:, :] * ddxn_z_full[:, nf:, :] + vt[:, nf:, :] * ddxt_z_full[:, nf:, :]
    vn_ie[:, 0, :] = vn[:, 0, :]
    z_vt_ie[:, 0, :] = vt[:, 0, :]
    vn_ie[:, nlev, :] = (wgtfacq_e[:, 0, :] * vn[:, nlev - 1, :] + wgtfacq_e[:, 1, :] * vn[:, nlev - 2, :]
                         + wgtfacq_e[:, 2, :] * vn[:, nlev - 3, :])

    # z_v_grad_w on edges
    wlev = w[:, :nlev, :]
    zwv = z_w_v[:, :nlev, :]
    z_v_grad_w = (vn_ie[:, :nlev, :] * inv_dual_edge_length[:, None, :]
                  * (_gat(wlev, edges_cell_idx, edges_cell_blk, 0) - _gat(wlev, edges_cell_idx, edges_cell_blk, 1))
                  + z_vt_ie * inv_primal_edge_length[:, None, :] * tangent_orientation[:, None, :]
                  * (_gat(zwv, edges_vertex_idx, edges_vertex_blk, 0) - _gat(zwv, edges_vertex_idx, edges_vertex_blk, 1)))

    # cells: kinetic energy, contravariant correction
    z_ekinh = np.zeros((nblks_c, nlev, nproma), dtype=vn.dtype)
    for n in range(3):
        z_ekinh += e_bln_c_s[:, n, None, :] * _gat(z_kin_hor_e, cells_edge_idx, cells_edge_blk, n)
    mc = np.zeros((nblks_c, nlev, nproma), dtype=vn.dtype)
    for n in range(3):
        mc += e_bln_c_s[:, n, None, :] * _gat(z_w_concorr_me, cells_edge_idx, cells_edge_blk, n)
    wc = wgtfac_c[:, nf + 1:nlev, :]
    w_concorr_c[:, nf + 1:, :] = wc * mc[:, nf + 1:, :] + (one - wc) * mc[:, nf:nlev - 1, :]

    z_w_con_c = np.zeros((nblks_c, nlev + 1, nproma), dtype=vn.dtype)
    z_w_con_c[:, :nlev, :] = w[:, :nlev, :]
    z_w_con_c[:, nf + 1:nlev, :] -= w_concorr_c[:, nf + 1:, :]

    # CFL clipping band
    lo, hi = max(3, nrdmax - 2) - 1, nlev - 4
    vmax = t(0)
    if hi >= lo:
        h = ddqz_z_half[:, lo:hi + 1, :]
        zc = z_w_con_c[:, lo:hi + 1, :]
        clip = np.abs(zc) > cfl_w_limit * h
        vcfl = zc * dtime / h
        if np.any(clip):
            vmax = np.max(np.where(clip, np.abs(vcfl), t(0)))
        lim = t(0.85) * h / dtime
        z_w_con_c[:, lo:hi + 1, :] = np.where(clip & (vcfl < t(-0.85)), -lim,
                                              np.where(clip & (vcfl > t(0.85)), lim, zc))
    max_vcfl_dyn[0] = vmax
    z_w_con_c_full = half * (z_w_con_c[:, :nlev, :] + z_w_con_c[:, 1:, :])

    # vertical wind tendency at half levels 1..nlev-1
    zk = z_w_con_c[:, 1:nlev, :]
    c1 = coeff1_dwdz[:, 1:, :]
    c2 = coeff2_dwdz[:, 1:, :]
    adv = -zk * (w[:, 0:nlev - 1, :] * c1 - w[:, 2:nlev + 1, :] * c2 + w[:, 1:nlev, :] * (c2 - c1))
    acc = np.zeros((nblks_c, nlev - 1, nproma), dtype=vn.dtype)
    zvg = z_v_grad_w[:, 1:, :]
    for n in range(3):
        acc += e_bln_c_s[:, n, None, :] * _gat(zvg, cells_edge_idx, cells_edge_blk, n)
    ddt_w_adv[:] = adv + acc

    # horizontal wind tendency on edges
    ekc1 = _gat(z_ekinh, edges_cell_idx, edges_cell_blk, 0)
    ekc2 = _gat(z_ekinh, edges_cell_idx, edges_cell_blk, 1)
    zv1 = _gat(zeta, edges_vertex_idx, edges_vertex_blk, 0)
    zv2 = _gat(zeta, edges_vertex_idx, edges_vertex_blk, 1)
    wcf1 = _gat(z_w_con_c_full, edges_cell_idx, edges_cell_blk, 0)
    wcf2 = _gat(z_w_con_c_full, edges_cell_idx, edges_cell_blk, 1)
    cg0 = coeff_gradekin[:, 0, None, :]
    cg1 = coeff_gradekin[:, 1, None, :]
    clin = c_lin_e[:, 0, None, :] * wcf1 + c_lin_e[:, 1, None, :] * wcf2
    grad_ekin = z_kin_hor_e * (cg0 - cg1) + cg1 * ekc2 - cg0 * ekc1
    ddt_vn_apc[:] = -(grad_ekin + vt * (f_e[:, None, :] + half * (zv1 + zv2))
                      + clin * (vn_ie[:, :nlev, :] - vn_ie[:, 1:, :]) / ddqz_z_full_e)
