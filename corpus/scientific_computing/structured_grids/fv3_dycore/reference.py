import numpy as np

P1 = 7.0 / 12.0
P2 = -1.0 / 12.0

# cubed-sphere corner fills (dst_i, dst_j, src_i, src_j), negative = from the end (PyFV3 copy_corners)
_CORNERS_X = [(0, 0, 0, 5), (0, 1, 1, 5), (0, 2, 2, 5), (1, 0, 0, 4), (1, 1, 1, 4), (1, 2, 2, 4),
              (2, 0, 0, 3), (2, 1, 1, 3), (2, 2, 2, 3), (0, -4, 2, -7), (0, -3, 1, -7), (0, -2, 0, -7),
              (1, -4, 2, -6), (1, -3, 1, -6), (1, -2, 0, -6), (2, -4, 2, -5), (2, -3, 1, -5), (2, -2, 0, -5),
              (-4, 0, -2, 3), (-4, 1, -3, 3), (-4, 2, -4, 3), (-3, 0, -2, 4), (-3, 1, -3, 4), (-3, 2, -4, 4),
              (-2, 0, -2, 5), (-2, 1, -3, 5), (-2, 2, -4, 5), (-4, -2, -2, -5), (-4, -3, -3, -5),
              (-4, -4, -4, -5), (-3, -2, -2, -6), (-3, -3, -3, -6), (-3, -4, -4, -6), (-2, -2, -2, -7),
              (-2, -3, -3, -7), (-2, -4, -4, -7)]
_CORNERS_Y = [(dj, di, sj, si) for (di, dj, si, sj) in _CORNERS_X]


def _corners(q, table):
    f = q.copy()
    for di, dj, si, sj in table:
        f[di, dj] = q[si, sj]
    return f


def _ppm_x(a, c, ni):
    """xppm (mord 6, interior interface values): flux through x-interfaces i = 3 .. ni+3, zero elsewhere."""
    n = a.shape[0]
    al = np.zeros_like(a)
    al[2:n - 1] = P1 * (a[1:n - 2] + a[2:n - 1]) + P2 * (a[0:n - 3] + a[3:n])
    s = slice(3, ni + 4)
    sm = slice(2, ni + 3)
    sp = slice(4, ni + 5)
    bl = al[s] - a[s]
    br = al[sp] - a[s]
    b0 = bl + br
    bl_m1 = al[sm] - a[sm]
    br_m1 = al[s] - a[sm]
    b0_m1 = bl_m1 + br_m1
    smt5 = 3.0 * np.abs(b0) < np.abs(bl - br)
    smt5_m1 = 3.0 * np.abs(b0_m1) < np.abs(bl_m1 - br_m1)
    mask = np.where(smt5_m1 | smt5, 1.0, 0.0)
    cc = c[s]
    out = np.zeros_like(a)
    out[s] = np.where(cc > 0.0, a[sm] + ((1.0 - cc) * (br_m1 - cc * b0_m1)) * mask,
                      a[s] + ((1.0 + cc) * (bl + cc * b0)) * mask)
    return out


def _ppm_y(a, c, nj):
    return _ppm_x(a.transpose(1, 0, 2), c.transpose(1, 0, 2), nj).transpose(1, 0, 2)


def fv3_dycore(area, crx, cry, q, q_x_flux, q_y_flux, x_area_flux, y_area_flux, ni, nj, nk):
    """FV3 fv_tp_2d (hord 6, grid_type 3, no damping): x and y fluxes of q through the interior faces."""
    # y first: inner y sweep, q_i (eq 4.18), outer x sweep
    qy = _corners(q, _CORNERS_Y)
    fy = _ppm_y(qy, cry, nj)
    q_i = np.zeros_like(q)
    j = slice(3, nj + 3)
    jp = slice(4, nj + 4)
    q_i[:, j] = ((qy[:, j] * area[:, j] + y_area_flux[:, j] * fy[:, j]) - y_area_flux[:, jp] * fy[:, jp]) / (
        (area[:, j] + y_area_flux[:, j]) - y_area_flux[:, jp])
    q_ayxa = _ppm_x(q_i, crx, ni)
    # x first: inner x sweep, q_j, outer y sweep
    qx = _corners(q, _CORNERS_X)
    fx = _ppm_x(qx, crx, ni)
    q_j = np.zeros_like(q)
    i = slice(3, ni + 3)
    ip = slice(4, ni + 4)
    q_j[i] = ((qx[i] * area[i] + x_area_flux[i] * fx[i]) - x_area_flux[ip] * fx[ip]) / (
        (area[i] + x_area_flux[i]) - x_area_flux[ip])
    q_axya = _ppm_y(q_j, cry, nj)
    # eq 4.17
    xs, xj = slice(3, ni + 4), slice(3, nj + 3)
    q_x_flux[:] = (0.5 * (q_ayxa[xs, xj] + fx[xs, xj])) * x_area_flux[xs, xj]
    ys, yj = slice(3, ni + 3), slice(3, nj + 4)
    q_y_flux[:] = (0.5 * (q_axya[ys, yj] + fy[ys, yj])) * y_area_flux[ys, yj]
