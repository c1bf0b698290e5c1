import numpy as np

_BLOCK = 1 << 22  # pairwise elements per block of rows


def force_lj(disp, F, energy, N, cutoff, epsilon, sigma, spacing):
    """Truncated Lennard-Jones forces F and per-particle energies of lattice sites + disp."""
    t = disp.dtype.type
    n = 1
    while n * n * n < N:
        n += 1
    idx = np.arange(N)
    site = np.stack([idx % n, (idx // n) % n, idx // (n * n)], axis=1).astype(disp.dtype)
    pos = site * spacing + disp
    x, y, z = pos[:, 0], pos[:, 1], pos[:, 2]
    rc2 = cutoff * cutoff
    sig2 = sigma * sigma
    eps4 = t(4) * epsilon
    eps24 = t(24) * epsilon
    rows = max(1, _BLOCK // N)
    for i0 in range(0, N, rows):
        i1 = min(N, i0 + rows)
        dx = x[i0:i1, None] - x[None, :]
        dy = y[i0:i1, None] - y[None, :]
        dz = z[i0:i1, None] - z[None, :]
        r2 = dx * dx + dy * dy + dz * dz
        inside = (r2 < rc2) & (idx[None, :] != idx[i0:i1, None])
        r2s = np.where(inside, r2, t(1))
        sr2 = sig2 / r2s
        sr6 = sr2 * sr2 * sr2
        f = np.where(inside, eps24 * (t(2) * sr6 * sr6 - sr6) / r2s, t(0))
        phi = np.where(inside, eps4 * (sr6 * sr6 - sr6), t(0))
        F[i0:i1, 0] = np.sum(f * dx, axis=1)
        F[i0:i1, 1] = np.sum(f * dy, axis=1)
        F[i0:i1, 2] = np.sum(f * dz, axis=1)
        energy[i0:i1] = t(0.5) * np.sum(phi, axis=1)
