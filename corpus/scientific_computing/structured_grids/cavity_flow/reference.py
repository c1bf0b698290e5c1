import numpy as np


def cavity_flow(p, u, v, nit, nt, nx, ny, nu, rho):
    """nt steps of the lid-driven cavity: pressure source, nit Jacobi sweeps, momentum update."""
    t = u.dtype.type
    dx = 2.0 / (nx - 1)
    dy = 2.0 / (ny - 1)
    dt = 0.1 / ((nx - 1) * (ny - 1))
    rho_, nu_ = float(rho), float(nu)
    # constant coefficients, formed in double and rounded once to the run precision
    inv_dt, cx, cy = t(1.0 / dt), t(1.0 / (2.0 * dx)), t(1.0 / (2.0 * dy))
    dx2, dy2 = t(dx * dx), t(dy * dy)
    cden = t(1.0 / (2.0 * (dx * dx + dy * dy)))
    cb = t(dx * dx * dy * dy / (2.0 * (dx * dx + dy * dy)))
    ax, ay = t(dt / dx), t(dt / dy)
    px, py = t(dt / (2.0 * rho_ * dx)), t(dt / (2.0 * rho_ * dy))
    lx, ly = t(nu_ * dt / (dx * dx)), t(nu_ * dt / (dy * dy))
    rho_t = t(rho_)

    I = slice(1, ny - 1)
    J = slice(1, nx - 1)
    N, S = slice(2, ny), slice(0, ny - 2)  # rows i+1, i-1
    E, W = slice(2, nx), slice(0, nx - 2)  # columns j+1, j-1
    b = np.zeros_like(p)
    for _ in range(nt):
        un = u.copy()
        vn = v.copy()
        dudx = (u[I, E] - u[I, W]) * cx
        dvdy = (v[N, J] - v[S, J]) * cy
        dudy = (u[N, J] - u[S, J]) * cy
        dvdx = (v[I, E] - v[I, W]) * cx
        b[I, J] = rho_t * (inv_dt * (dudx + dvdy) - dudx * dudx - 2 * (dudy * dvdx) - dvdy * dvdy)
        for _ in range(nit):
            pn = p.copy()
            p[I, J] = ((pn[I, E] + pn[I, W]) * dy2 + (pn[N, J] + pn[S, J]) * dx2) * cden - cb * b[I, J]
            p[:, nx - 1] = p[:, nx - 2]
            p[0, :] = p[1, :]
            p[:, 0] = p[:, 1]
            p[ny - 1, :] = 0
        c = un[I, J]
        u[I, J] = (c - (c * ax) * (c - un[I, W]) - (vn[I, J] * ay) * (c - un[S, J])
                   - px * (p[I, E] - p[I, W])
                   + (lx * ((un[I, E] - 2 * c) + un[I, W]) + ly * ((un[N, J] - 2 * c) + un[S, J])))
        c = vn[I, J]
        v[I, J] = (c - (un[I, J] * ax) * (c - vn[I, W]) - (c * ay) * (c - vn[S, J])
                   - py * (p[N, J] - p[S, J])
                   + (lx * ((vn[I, E] - 2 * c) + vn[I, W]) + ly * ((vn[N, J] - 2 * c) + vn[S, J])))
        u[0, :] = 0
        u[:, 0] = 0
        u[:, nx - 1] = 0
        u[ny - 1, :] = 1
        v[0, :] = 0
        v[ny - 1, :] = 0
        v[:, 0] = 0
        v[:, nx - 1] = 0
