import numpy as np

_BLOCK = 1 << 22  # pair elements per block of rows
_BASIS = ((0.0, 0.0, 0.0), (0.0, 0.5, 0.5), (0.5, 0.0, 0.5), (0.5, 0.5, 0.0))


def examinimd(disp, f, cells_per_dim, cutoff, density, epsilon, sigma):
    """ExaMiniMD full-neighbour Lennard-Jones forces on a perturbed FCC lattice."""
    t = disp.dtype.type
    C = cells_per_dim
    n = 4 * C * C * C
    a = (t(4) / density) ** t(1.0 / 3.0)
    idx = np.arange(n)
    cell = idx // 4
    b = idx % 4
    basis = np.array(_BASIS, dtype=disp.dtype)[b]
    site = np.stack([cell // (C * C), (cell // C) % C, cell % C], axis=1).astype(disp.dtype) + basis
    pos = site * a + disp
    x, y, z = pos[:, 0], pos[:, 1], pos[:, 2]
    s2 = sigma * sigma
    s6 = s2 * s2 * s2
    lj1 = t(48) * epsilon * (s6 * s6)
    lj2 = t(24) * epsilon * s6
    cutsq = cutoff * cutoff
    rows = max(1, _BLOCK // n)
    for i0 in range(0, n, rows):
        i1 = min(n, i0 + rows)
        dx = x[i0:i1, None] - x[None, :]
        dy = y[i0:i1, None] - y[None, :]
        dz = z[i0:i1, None] - z[None, :]
        rsq = dx * dx + dy * dy + dz * dz
        inside = (rsq < cutsq) & (idx[None, :] != idx[i0:i1, None])
        rs = np.where(inside, rsq, t(1))
        r2inv = t(1) / rs
        r6inv = r2inv * r2inv * r2inv
        fpair = np.where(inside, (r6inv * (lj1 * r6inv - lj2)) * r2inv, t(0))
        f[i0:i1, 0] = np.sum(dx * fpair, axis=1)
        f[i0:i1, 1] = np.sum(dy * fpair, axis=1)
        f[i0:i1, 2] = np.sum(dz * fpair, axis=1)
