import numpy as np


def zekin_gather(e_bln_c_s, ieblk, ieidx, vn, vt, z_ekinh, z_kin_hor_e, NB, NLEV, NPROMA):
    """Kinetic energy at edges, then its weighted sum over each cell's 3 edges."""
    half = vn.dtype.type(0.5)
    z_kin_hor_e[:] = half * (vn * vn + vt * vt)
    levels = np.arange(NLEV)[None, :, None]
    acc = np.zeros_like(z_ekinh)
    for e in range(3):
        edge_value = z_kin_hor_e[ieblk[e][:, None, :], levels, ieidx[e][:, None, :]]
        acc += e_bln_c_s[:, e, None, :] * edge_value
    z_ekinh[:] = acc
