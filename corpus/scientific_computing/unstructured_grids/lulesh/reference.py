import numpy as np

# Flanagan-Belytschko hourglass base vectors: _G[k][m] for node k, mode m
_G = ((1.0, 1.0, 1.0, -1.0), (1.0, -1.0, -1.0, 1.0), (-1.0, -1.0, 1.0, -1.0), (-1.0, 1.0, -1.0, 1.0),
      (-1.0, -1.0, 1.0, 1.0), (-1.0, 1.0, -1.0, -1.0), (1.0, 1.0, 1.0, 1.0), (1.0, -1.0, -1.0, -1.0))
# nodes feeding the volume derivative with respect to node k
_VPERM = ((1, 2, 3, 4, 5, 7), (2, 3, 0, 5, 6, 4), (3, 0, 1, 6, 7, 5), (0, 1, 2, 7, 4, 6),
          (7, 6, 5, 0, 3, 1), (4, 7, 6, 1, 0, 2), (5, 4, 7, 2, 1, 3), (6, 5, 4, 3, 2, 0))
_NFACES = ((0, 1, 2, 3), (0, 4, 5, 1), (1, 5, 6, 2), (2, 6, 7, 3), (3, 7, 4, 0), (4, 7, 6, 5))
_CFACES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))
_PTINY = 1.0e-36
_TINY1 = 0.111111e-36
_TINY3 = 0.333333e-18
_E_CUT = _P_CUT = _Q_CUT = _U_CUT = 1.0e-7
_V_CUT = 1.0e-10
_EMIN = -1.0e15
_EOSVMIN, _EOSVMAX = 1.0e-9, 1.0e9
_STOPTIME = _DTMAX = 1.0e-2


def _tp(x1, y1, z1, x2, y2, z2, x3, y3, z3):
    return x1 * (y2 * z3 - z2 * y3) + x2 * (z1 * y3 - y1 * z3) + x3 * (y1 * z2 - z1 * y2)


def _volume(x, y, z):
    d = lambda a, i, j: a[:, i] - a[:, j]
    v = (_tp(d(x, 3, 1) + d(x, 7, 2), d(x, 6, 3), d(x, 2, 0), d(y, 3, 1) + d(y, 7, 2), d(y, 6, 3), d(y, 2, 0),
             d(z, 3, 1) + d(z, 7, 2), d(z, 6, 3), d(z, 2, 0))
         + _tp(d(x, 4, 3) + d(x, 5, 7), d(x, 6, 4), d(x, 7, 0), d(y, 4, 3) + d(y, 5, 7), d(y, 6, 4), d(y, 7, 0),
               d(z, 4, 3) + d(z, 5, 7), d(z, 6, 4), d(z, 7, 0))
         + _tp(d(x, 1, 4) + d(x, 2, 5), d(x, 6, 1), d(x, 5, 0), d(y, 1, 4) + d(y, 2, 5), d(y, 6, 1), d(y, 5, 0),
               d(z, 1, 4) + d(z, 2, 5), d(z, 6, 1), d(z, 5, 0)))
    return v * (1.0 / 12.0)


def _char_length(x, y, z, vol):
    charl = np.zeros_like(vol)
    for a, b, c, d in _CFACES:
        fx = (x[:, c] - x[:, a]) - (x[:, d] - x[:, b])
        fy = (y[:, c] - y[:, a]) - (y[:, d] - y[:, b])
        fz = (z[:, c] - z[:, a]) - (z[:, d] - z[:, b])
        gx = (x[:, c] - x[:, a]) + (x[:, d] - x[:, b])
        gy = (y[:, c] - y[:, a]) + (y[:, d] - y[:, b])
        gz = (z[:, c] - z[:, a]) + (z[:, d] - z[:, b])
        fg = fx * gx + fy * gy + fz * gz
        area = (fx * fx + fy * fy + fz * fz) * (gx * gx + gy * gy + gz * gz) - fg * fg
        charl = np.maximum(area, charl)
    return 4.0 * vol / np.sqrt(charl)


def _shape_derivs(x, y, z):
    """Shape-function derivatives b[:, k, dim] and the Jacobian volume of each hexahedron."""
    def f(a):
        return (0.125 * ((a[:, 6] - a[:, 0]) + (a[:, 5] - a[:, 3]) - (a[:, 7] - a[:, 1]) - (a[:, 4] - a[:, 2])),
                0.125 * ((a[:, 6] - a[:, 0]) - (a[:, 5] - a[:, 3]) + (a[:, 7] - a[:, 1]) - (a[:, 4] - a[:, 2])),
                0.125 * ((a[:, 6] - a[:, 0]) + (a[:, 5] - a[:, 3]) + (a[:, 7] - a[:, 1]) + (a[:, 4] - a[:, 2])))
    xxi, xet, xze = f(x)
    yxi, yet, yze = f(y)
    zxi, zet, zze = f(z)
    cxxi = (yet * zze) - (zet * yze)
    cxet = -(yxi * zze) + (zxi * yze)
    cxze = (yxi * zet) - (zxi * yet)
    cyxi = -(xet * zze) + (zet * xze)
    cyet = (xxi * zze) - (zxi * xze)
    cyze = -(xxi * zet) + (zxi * xet)
    czxi = (xet * yze) - (yet * xze)
    czet = -(xxi * yze) + (yxi * xze)
    czze = (xxi * yet) - (yxi * xet)
    b = np.empty((x.shape[0], 8, 3), dtype=x.dtype)
    for dim, (ca, cb, cc) in enumerate(((cxxi, cxet, cxze), (cyxi, cyet, cyze), (czxi, czet, czze))):
        b[:, 0, dim] = -ca - cb - cc
        b[:, 1, dim] = ca - cb - cc
        b[:, 2, dim] = ca + cb - cc
        b[:, 3, dim] = -ca + cb - cc
        b[:, 4, dim] = -b[:, 2, dim]
        b[:, 5, dim] = -b[:, 3, dim]
        b[:, 6, dim] = -b[:, 0, dim]
        b[:, 7, dim] = -b[:, 1, dim]
    return b, 8.0 * (xet * cxet + yet * cyet + zet * czet)


def _node_normals(x, y, z):
    pf = np.zeros((x.shape[0], 8, 3), dtype=x.dtype)
    for n0, n1, n2, n3 in _NFACES:
        bx0 = 0.5 * (x[:, n3] + x[:, n2] - x[:, n1] - x[:, n0])
        by0 = 0.5 * (y[:, n3] + y[:, n2] - y[:, n1] - y[:, n0])
        bz0 = 0.5 * (z[:, n3] + z[:, n2] - z[:, n1] - z[:, n0])
        bx1 = 0.5 * (x[:, n2] + x[:, n1] - x[:, n3] - x[:, n0])
        by1 = 0.5 * (y[:, n2] + y[:, n1] - y[:, n3] - y[:, n0])
        bz1 = 0.5 * (z[:, n2] + z[:, n1] - z[:, n3] - z[:, n0])
        ax = 0.25 * (by0 * bz1 - bz0 * by1)
        ay = 0.25 * (bz0 * bx1 - bx0 * bz1)
        az = 0.25 * (bx0 * by1 - by0 * bx1)
        for k in (n0, n1, n2, n3):
            pf[:, k, 0] += ax
            pf[:, k, 1] += ay
            pf[:, k, 2] += az
    return pf


def _volume_derivs(x, y, z):
    dvdx = np.empty_like(x)
    dvdy = np.empty_like(x)
    dvdz = np.empty_like(x)
    for k in range(8):
        i0, i1, i2, i3, i4, i5 = _VPERM[k]
        x0, x1, x2, x3, x4, x5 = x[:, i0], x[:, i1], x[:, i2], x[:, i3], x[:, i4], x[:, i5]
        y0, y1, y2, y3, y4, y5 = y[:, i0], y[:, i1], y[:, i2], y[:, i3], y[:, i4], y[:, i5]
        z0, z1, z2, z3, z4, z5 = z[:, i0], z[:, i1], z[:, i2], z[:, i3], z[:, i4], z[:, i5]
        dvdx[:, k] = ((y1 + y2) * (z0 + z1) - (y0 + y1) * (z1 + z2) + (y0 + y4) * (z3 + z4) - (y3 + y4) * (z0 + z4)
                      - (y2 + y5) * (z3 + z5) + (y3 + y5) * (z2 + z5)) * (1.0 / 12.0)
        dvdy[:, k] = (-(x1 + x2) * (z0 + z1) + (x0 + x1) * (z1 + z2) - (x0 + x4) * (z3 + z4) + (x3 + x4) * (z0 + z4)
                      + (x2 + x5) * (z3 + z5) - (x3 + x5) * (z2 + z5)) * (1.0 / 12.0)
        dvdz[:, k] = (-(y1 + y2) * (x0 + x1) + (y0 + y1) * (x1 + x2) - (y0 + y4) * (x3 + x4) + (y3 + y4) * (x0 + x4)
                      + (y2 + y5) * (x3 + x5) - (y3 + y5) * (x2 + x5)) * (1.0 / 12.0)
    return dvdx, dvdy, dvdz


def _scatter(f, nodes, vals):
    """f[nodes[e, k]] += vals[e, k], element by element, corner by corner."""
    np.add.at(f, nodes.reshape(-1), vals.reshape(-1))


def _pressure(e, compression, vnewc):
    bvc = (2.0 / 3.0) * (compression + 1.0)
    p = bvc * e
    p = np.where(np.abs(p) < _P_CUT, 0.0, p)
    p = np.where(vnewc >= _EOSVMAX, 0.0, p)
    p = np.where(p < 0.0, 0.0, p)
    return p, bvc


def _sound(e, p, bvc, vv):
    s = ((2.0 / 3.0) * e + vv * vv * bvc * p) / 1.0
    return np.where(s <= _TINY1, _TINY3, np.sqrt(np.where(s <= _TINY1, 1.0, s)))


def _phi(dm, dp, norm):
    dm = dm * norm
    dp = dp * norm
    phi = 0.5 * (dm + dp)
    dm = dm * 2.0
    dp = dp * 2.0
    phi = np.minimum(phi, dm)
    phi = np.minimum(phi, dp)
    phi = np.where(phi < 0.0, 0.0, phi)
    return np.where(phi > 1.0, 1.0, phi)


def lulesh(e, p, q, v, edge_elems, nsteps):
    """nsteps Lagrange-leapfrog cycles of LULESH on an edge_elems^3 cube from the given e, p, q, v."""
    E = edge_elems
    N = E + 1
    ne = E * E * E
    e_ = e.reshape(-1).copy()
    p_ = p.reshape(-1).copy()
    q_ = q.reshape(-1).copy()
    v_ = v.reshape(-1).copy()
    # mesh: nodes (plane, row, col) on [0, 1.125]^3, elements' 8 corners
    coord = 1.125 * np.arange(N, dtype=np.float64) / E
    zz, yy, xx = np.meshgrid(coord, coord, coord, indexing="ij")
    x, y, z = xx.reshape(-1).copy(), yy.reshape(-1).copy(), zz.reshape(-1).copy()
    pl, rw, cl = np.meshgrid(np.arange(E), np.arange(E), np.arange(E), indexing="ij")
    pl, rw, cl = pl.reshape(-1), rw.reshape(-1), cl.reshape(-1)
    n0 = (pl * N + rw) * N + cl
    nodes = np.stack([n0, n0 + 1, n0 + N + 1, n0 + N, n0 + N * N, n0 + N * N + 1, n0 + N * N + N + 1,
                      n0 + N * N + N], axis=1)
    volo = _volume(x[nodes], y[nodes], z[nodes])
    elem_mass = volo.copy()
    nodal_mass = np.zeros(N * N * N)
    _scatter(nodal_mass, nodes, np.repeat((volo / 8.0)[:, None], 8, axis=1))
    ip, jr, kc = np.meshgrid(np.arange(N), np.arange(N), np.arange(N), indexing="ij")
    symm_x = (kc == 0).reshape(-1)
    symm_y = (jr == 0).reshape(-1)
    symm_z = (ip == 0).reshape(-1)
    idx = np.arange(ne)
    # neighbour element across each face; faces on the x/y/z = 0 planes are symmetry planes, the far ones free
    nbr = [(idx - 1, cl == 0, None), (idx + 1, None, cl == E - 1), (idx - E, rw == 0, None),
           (idx + E, None, rw == E - 1), (idx - E * E, pl == 0, None), (idx + E * E, None, pl == E - 1)]
    xd = np.zeros_like(x)
    yd = np.zeros_like(x)
    zd = np.zeros_like(x)
    ss = np.zeros(ne)
    dt = 1.0e-7
    time = 0.0
    dtcourant = 1.0e20
    dthydro = 1.0e20
    for cycle in range(nsteps):
        # TimeIncrement
        targetdt = _STOPTIME - time
        if cycle != 0:
            olddt = dt
            newdt = 1.0e20
            if dtcourant < newdt:
                newdt = dtcourant / 2.0
            if dthydro < newdt:
                newdt = dthydro * (2.0 / 3.0)
            ratio = newdt / olddt
            if ratio >= 1.0:
                if ratio < 1.1:
                    newdt = olddt
                elif ratio > 1.2:
                    newdt = olddt * 1.2
            if newdt > _DTMAX:
                newdt = _DTMAX
            dt = newdt
        if targetdt > dt and targetdt < 4.0 * dt / 3.0:
            targetdt = 2.0 * dt / 3.0
        if targetdt < dt:
            dt = targetdt
        time = time + dt

        # LagrangeNodal: stress and hourglass forces
        xl, yl, zl = x[nodes], y[nodes], z[nodes]
        sig = -p_ - q_
        pf = _node_normals(xl, yl, zl)
        fx = np.zeros_like(x)
        fy = np.zeros_like(x)
        fz = np.zeros_like(x)
        _scatter(fx, nodes, -(sig[:, None] * pf[:, :, 0]))
        _scatter(fy, nodes, -(sig[:, None] * pf[:, :, 1]))
        _scatter(fz, nodes, -(sig[:, None] * pf[:, :, 2]))
        dvdx, dvdy, dvdz = _volume_derivs(xl, yl, zl)
        determ = volo * v_
        volinv = 1.0 / determ
        hg = np.empty((ne, 4, 8))
        for m in range(4):
            hx = np.zeros(ne)
            hy = np.zeros(ne)
            hz = np.zeros(ne)
            for k in range(8):
                hx += xl[:, k] * _G[k][m]
                hy += yl[:, k] * _G[k][m]
                hz += zl[:, k] * _G[k][m]
            for k in range(8):
                hg[:, m, k] = _G[k][m] - volinv * ((hx * dvdx[:, k] + hy * dvdy[:, k]) + hz * dvdz[:, k])
        coef = -3.0 * 0.01 * ss * elem_mass / np.cbrt(determ)
        for f, vel in ((fx, xd), (fy, yd), (fz, zd)):
            vl = vel[nodes]
            h = np.zeros((ne, 4))
            for m in range(4):
                for k in range(8):
                    h[:, m] += hg[:, m, k] * vl[:, k]
            hgf = np.zeros((ne, 8))
            for k in range(8):
                acc = np.zeros(ne)
                for m in range(4):
                    acc += h[:, m] * hg[:, m, k]
                hgf[:, k] = coef * acc
            _scatter(f, nodes, hgf)
        xdd = np.where(symm_x, 0.0, fx / nodal_mass)
        ydd = np.where(symm_y, 0.0, fy / nodal_mass)
        zdd = np.where(symm_z, 0.0, fz / nodal_mass)
        t = xd + xdd * dt
        xd = np.where(np.abs(t) < _U_CUT, 0.0, t)
        t = yd + ydd * dt
        yd = np.where(np.abs(t) < _U_CUT, 0.0, t)
        t = zd + zdd * dt
        zd = np.where(np.abs(t) < _U_CUT, 0.0, t)
        x = x + xd * dt
        y = y + yd * dt
        z = z + zd * dt

        # LagrangeElements: kinematics
        xl, yl, zl = x[nodes], y[nodes], z[nodes]
        vol = _volume(xl, yl, zl)
        vnew = vol / volo
        delv = vnew - v_
        arealg = _char_length(xl, yl, zl, vol)
        xv, yv, zv = xd[nodes], yd[nodes], zd[nodes]
        dt2 = 0.5 * dt
        b, detj = _shape_derivs(xl - dt2 * xv, yl - dt2 * yv, zl - dt2 * zv)
        inv = 1.0 / detj

        def dot(pfd, w):
            return (pfd[:, 0] * (w[:, 0] - w[:, 6]) + pfd[:, 1] * (w[:, 1] - w[:, 7])
                    + pfd[:, 2] * (w[:, 2] - w[:, 4]) + pfd[:, 3] * (w[:, 3] - w[:, 5]))
        vdov = inv * dot(b[:, :, 0], xv) + inv * dot(b[:, :, 1], yv) + inv * dot(b[:, :, 2], zv)

        # monotonic Q gradients
        vv = volo * vnew
        norm = 1.0 / (vv + _PTINY)

        def grad(a, plus, minus):
            return 0.25 * ((a[:, plus[0]] + a[:, plus[1]] + a[:, plus[2]] + a[:, plus[3]])
                           - (a[:, minus[0]] + a[:, minus[1]] + a[:, minus[2]] + a[:, minus[3]]))
        XI = ((1, 2, 6, 5), (0, 3, 7, 4))
        ETA = ((3, 2, 6, 7), (0, 1, 5, 4))
        ZETA = ((4, 5, 6, 7), (0, 1, 2, 3))
        dxi, dyi, dzi = grad(xl, *XI), grad(yl, *XI), grad(zl, *XI)
        dxj, dyj, dzj = grad(xl, *ETA), grad(yl, *ETA), grad(zl, *ETA)
        dxk, dyk, dzk = grad(xl, *ZETA), grad(yl, *ZETA), grad(zl, *ZETA)
        delx = []
        delvg = []
        for (ua, va_, wa), (ub, vb, wb), dirn in (((dyj, dzj, dxj), (dyk, dzk, dxk), XI),
                                                  ((dyk, dzk, dxk), (dyi, dzi, dxi), ETA),
                                                  ((dyi, dzi, dxi), (dyj, dzj, dxj), ZETA)):
            ax = ua * vb - va_ * ub
            ay = va_ * wb - wa * vb
            az = wa * ub - ua * wb
            delx.append(vv / np.sqrt(ax * ax + ay * ay + az * az + _PTINY))
            dxv, dyv, dzv = grad(xv, *dirn), grad(yv, *dirn), grad(zv, *dirn)
            delvg.append((ax * norm) * dxv + (ay * norm) * dyv + (az * norm) * dzv)
        # monotonic Q region
        phis = []
        for a in range(3):
            dv = delvg[a]
            nrm = 1.0 / (dv + _PTINY)
            side = []
            for s in range(2):
                nb, symm, free = nbr[2 * a + s]
                val = dv[np.clip(nb, 0, ne - 1)]
                if symm is not None:
                    val = np.where(symm, dv, val)
                if free is not None:
                    val = np.where(free, 0.0, val)
                side.append(val)
            phis.append(_phi(side[0], side[1], nrm))
        dx3 = [np.minimum(delvg[a] * delx[a], 0.0) for a in range(3)]
        rho = elem_mass / (volo * vnew)
        qlin = -0.5 * rho * (dx3[0] * (1.0 - phis[0]) + dx3[1] * (1.0 - phis[1]) + dx3[2] * (1.0 - phis[2]))
        qquad = (2.0 / 3.0) * rho * (dx3[0] * dx3[0] * (1.0 - phis[0] * phis[0])
                                     + dx3[1] * dx3[1] * (1.0 - phis[1] * phis[1])
                                     + dx3[2] * dx3[2] * (1.0 - phis[2] * phis[2]))
        ql = np.where(vdov > 0.0, 0.0, qlin)
        qq = np.where(vdov > 0.0, 0.0, qquad)

        # material: EOS
        vnewc = np.minimum(np.maximum(vnew, _EOSVMIN), _EOSVMAX)
        compression = 1.0 / vnewc - 1.0
        vchalf = vnewc - delv * 0.5
        comp_half = 1.0 / vchalf - 1.0
        comp_half = np.where(vnewc <= _EOSVMIN, compression, comp_half)
        big = vnewc >= _EOSVMAX
        p_old = np.where(big, 0.0, p_)
        compression = np.where(big, 0.0, compression)
        comp_half = np.where(big, 0.0, comp_half)
        q_old = q_
        e_new = np.maximum(e_ - 0.5 * delv * (p_old + q_old), _EMIN)
        p_half, bvc = _pressure(e_new, comp_half, vnewc)
        vhalf = 1.0 / (1.0 + comp_half)
        ssc = _sound(e_new, p_half, bvc, vhalf)
        q_new = np.where(delv > 0.0, 0.0, ssc * ql + qq)
        e_new = e_new + 0.5 * delv * (3.0 * (p_old + q_old) - 4.0 * (p_half + q_new))
        e_new = np.where(np.abs(e_new) < _E_CUT, 0.0, e_new)
        e_new = np.maximum(e_new, _EMIN)
        p_new, bvc = _pressure(e_new, compression, vnewc)
        ssc = _sound(e_new, p_new, bvc, vnewc)
        q_tilde = np.where(delv > 0.0, 0.0, ssc * ql + qq)
        e_new = e_new - (7.0 * (p_old + q_old) - 8.0 * (p_half + q_new) + (p_new + q_tilde)) * delv * (1.0 / 6.0)
        e_new = np.where(np.abs(e_new) < _E_CUT, 0.0, e_new)
        e_new = np.maximum(e_new, _EMIN)
        p_new, bvc = _pressure(e_new, compression, vnewc)
        ssc = _sound(e_new, p_new, bvc, vnewc)
        q2 = ssc * ql + qq
        q2 = np.where(np.abs(q2) < _Q_CUT, 0.0, q2)
        q_new = np.where(delv <= 0.0, q2, q_new)
        p_, e_, q_ = p_new, e_new, q_new
        ss = _sound(e_new, p_new, bvc, vnewc)
        v_ = np.where(np.abs(vnew - 1.0) < _V_CUT, 1.0, vnew)

        # time constraints
        active = vdov != 0.0
        dtf = ss * ss
        dtf = np.where(vdov < 0.0, dtf + (64.0 * 2.0 * 2.0) * arealg * arealg * vdov * vdov, dtf)
        dtf = arealg / np.sqrt(dtf)
        dtcourant = min(1.0e20, float(np.min(np.where(active, dtf, 1.0e20))))
        dth = 0.1 / (np.abs(vdov) + 1.0e-20)
        dthydro = min(1.0e20, float(np.min(np.where(active, dth, 1.0e20))))
    e[:] = e_.reshape(e.shape)
    p[:] = p_.reshape(p.shape)
    q[:] = q_.reshape(q.shape)
    v[:] = v_.reshape(v.shape)
