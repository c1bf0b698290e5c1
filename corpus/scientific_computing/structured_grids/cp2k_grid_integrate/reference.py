import numpy as np

_MAXR = 2  # at most 2 grid points either side of a product centre (radius <= 2 spacings)
_NP = 5  # powers 0..4: angular momenta up to 2 on each centre


def _cosets():
    # CP2K coset order: l = 0, 1, 2; index l(l+1)(l+2)/6 + (l-lx)(l-lx+1)/2 + lz
    out = []
    for l in range(3):
        for lx in range(l, -1, -1):
            for lz in range(0, l - lx + 1):
                ly = l - lx - lz
                out.append((lx, ly, lz))
    return out


def _block(dh, grid, la_max, la_min, lb_max, lb_min, ra, rab, radius, zeta, zetb, npts):
    """hab increments of a block of tasks: (T, 10, 10), zero outside each task's (lb, la) ranges."""
    T = zeta.shape[0]
    dh_inv = 1.0 / dh
    zetp = zeta + zetb
    f = zetb / zetp
    rab2 = rab[:, 0] * rab[:, 0] + rab[:, 1] * rab[:, 1] + rab[:, 2] * rab[:, 2]
    prefactor = np.exp(-zeta * f * rab2)
    rp = ra + f[:, None] * rab  # (T, 3) product centre
    rb = ra + rab
    center = np.floor(dh_inv[None, :] * rp).astype(np.int64)
    span = (radius[:, None] / dh[None, :]).astype(np.int64)
    span = np.where(span.astype(np.float64) * dh[None, :] < radius[:, None], span + 1, span)
    rel = np.arange(-_MAXR, _MAXR + 1)
    idx = center[:, :, None] + rel[None, None, :]  # (T, 3, 5) grid coordinates of the cube
    disp = idx.astype(np.float64) * dh[None, :, None] - rp[:, :, None]
    valid = np.abs(rel)[None, None, :] <= span[:, :, None]
    # pol[t, d, l, i] = exp(-zetp r^2) r^l, the repeated product of the scalar loop
    pol = np.empty((T, 3, _NP, 2 * _MAXR + 1))
    p = np.exp(-zetp[:, None, None] * disp * disp)
    for l in range(_NP):
        pol[:, :, l, :] = p
        p = p * disp
    pol = pol * valid[:, :, None, :]
    g = idx % npts
    vals = grid[g[:, 2, :, None, None], g[:, 1, None, :, None], g[:, 0, None, None, :]]  # (T, k, j, i)
    dx, dy, dz = disp[:, 0, :], disp[:, 1, :], disp[:, 2, :]
    r2 = dz[:, :, None, None] ** 2 + dy[:, None, :, None] ** 2 + dx[:, None, None, :] ** 2
    inside = (r2 <= (radius * radius)[:, None, None, None]) & valid[:, 2, :, None, None] \
        & valid[:, 1, None, :, None] & valid[:, 0, None, None, :]
    w = np.where(inside, vals, 0.0)
    # cxyz[t, lz, ly, lx] = sum over the sphere of grid * pol_z * pol_y * pol_x
    a = np.matmul(w.reshape(T, 25, 5), pol[:, 0].transpose(0, 2, 1))  # (T, k*j, x)
    a = np.matmul(a.reshape(T, 5, 5, 5).transpose(0, 1, 3, 2), pol[:, 1].transpose(0, 2, 1)[:, None])  # (T, k, x, y)
    cxyz = np.matmul(pol[:, 2], a.reshape(T, 5, 25))  # (T, z, x*y)
    cxyz = cxyz.reshape(T, 5, 5, 5).transpose(0, 1, 3, 2)  # (T, z, y, x)
    # alpha[t, d, lb, la, l]: (x-A)^la (x-B)^lb expanded in powers of (x-P)
    drpa = rp - ra
    drpb = rp - rb
    alpha = np.zeros((T, 3, 3, 3, _NP))
    for lxa in range(3):
        for lxb in range(3):
            for ka in range(lxa + 1):
                for kb in range(lxb + 1):
                    coef = float(_binom(lxa, ka) * _binom(lxb, kb))
                    alpha[:, :, lxb, lxa, lxa - ka + lxb - kb] += coef * drpa ** ka * drpb ** kb
    cos = _cosets()
    ax = np.array([c[0] for c in cos])
    ay = np.array([c[1] for c in cos])
    az = np.array([c[2] for c in cos])
    AX = alpha[:, 0][:, ax[:, None], ax[None, :], :]  # (T, jco, ico, l): b coset rows, a coset columns
    AY = alpha[:, 1][:, ay[:, None], ay[None, :], :]
    AZ = alpha[:, 2][:, az[:, None], az[None, :], :]
    s = np.matmul(AX.reshape(T, 100, 5), cxyz.transpose(0, 3, 1, 2).reshape(T, 5, 25))  # (T, b*a, z*y)
    s = (s.reshape(T, 100, 5, 5) * AY.reshape(T, 100, 1, 5)).sum(axis=3)  # (T, b*a, z)
    cab = prefactor[:, None, None] * (s * AZ.reshape(T, 100, 5)).sum(axis=2).reshape(T, 10, 10)
    lvec = ax + ay + az
    amask = (lvec[None, :] >= la_min[:, None]) & (lvec[None, :] <= la_max[:, None])
    bmask = (lvec[None, :] >= lb_min[:, None]) & (lvec[None, :] <= lb_max[:, None])
    return np.where(bmask[:, :, None] & amask[:, None, :], cab, 0.0)


def _binom(n, k):
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def cp2k_grid_integrate(dh, grid, hab, la_max, la_min, lb_max, lb_min, ra, rab, radius, zeta, zetb,
                        npts, num_tasks):
    """hab[t] += the Gaussian-pair block of task t integrated against the periodic grid."""
    lam = la_max.astype(np.int64)
    lan = la_min.astype(np.int64)
    lbm = lb_max.astype(np.int64)
    lbn = lb_min.astype(np.int64)
    chunk = 16384
    for t0 in range(0, num_tasks, chunk):
        t1 = min(num_tasks, t0 + chunk)
        hab[t0:t1] += _block(dh, grid, lam[t0:t1], lan[t0:t1], lbm[t0:t1], lbn[t0:t1], ra[t0:t1],
                             rab[t0:t1], radius[t0:t1], zeta[t0:t1], zetb[t0:t1], npts)
