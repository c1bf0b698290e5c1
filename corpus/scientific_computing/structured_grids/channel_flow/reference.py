import numpy as np


def channel_flow(p, u, v, nit, nt, nx, ny, F, nu, rho):
    """nt steps of force-driven channel flow, periodic in x, walls at the first and last rows."""
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
    fdt = t(float(F) * dt)
    rho_t = t(rho_)

    I, N, S = slice(1, ny - 1), slice(2, ny), slice(0, ny - 2)  # rows i, i+1, i-1
    east = (np.arange(nx) + 1) % nx  # column j+1, periodic
    west = (np.arange(nx) + nx - 1) % nx  # column j-1, periodic
    b = np.zeros_like(p)
    for _ in range(nt):
        un = u.copy()
        vn = v.copy()
        dudx = (u[I][:, east] - u[I][:, west]) * cx
        dvdy = (v[N] - v[S]) * cy
        dudy = (u[N] - u[S]) * cy
        dvdx = (v[I][:, east] - v[I][:, west]) * cx
        b[I] = rho_t * (inv_dt * (dudx + dvdy) - dudx * dudx - 2 * (dudy * dvdx) - dvdy * dvdy)
        for _ in range(nit):
            pn = p.copy()
            p[I] = ((pn[I][:, east] + pn[I][:, west]) * dy2 + (pn[N] + pn[S]) * dx2) * cden - cb * b[I]
            p[ny - 1, :] = p[ny - 2, :]
            p[0, :] = p[1, :]
        c = un[I]
        u[I] = (c - (c * ax) * (c - un[I][:, west]) - (vn[I] * ay) * (c - un[S])
                - px * (p[I][:, east] - p[I][:, west])
                + (lx * ((un[I][:, east] - 2 * c) + un[I][:, west]) + ly * ((un[N] - 2 * c) + un[S]))
                + fdt)
        c = vn[I]
        v[I] = (c - (un[I] * ax) * (c - vn[I][:, west]) - (c * ay) * (c - vn[S])
                - py * (p[N] - p[S])
                + (lx * ((vn[I][:, east] - 2 * c) + vn[I][:, west]) + ly * ((vn[N] - 2 * c) + vn[S])))
        u[0, :] = 0
        u[ny - 1, :] = 0
        v[0, :] = 0
        v[ny - 1, :] = 0
