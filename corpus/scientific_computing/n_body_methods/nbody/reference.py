import numpy as np

_BLOCK = 1 << 22  # pairwise elements per block of rows


def _accel(pos, m, G, softening, acc):
    """acc[i] = G * sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + softening^2)^1.5."""
    N = pos.shape[0]
    x, y, z = pos[:, 0], pos[:, 1], pos[:, 2]
    soft2 = softening * softening
    rows = max(1, _BLOCK // N)
    for i0 in range(0, N, rows):
        i1 = min(N, i0 + rows)
        dx = x[None, :] - x[i0:i1, None]
        dy = y[None, :] - y[i0:i1, None]
        dz = z[None, :] - z[i0:i1, None]
        r2 = dx * dx + dy * dy + dz * dz + soft2
        inv_r3 = 1 / (r2 * np.sqrt(r2))
        acc[i0:i1, 0] = G * ((dx * inv_r3) @ m)
        acc[i0:i1, 1] = G * ((dy * inv_r3) @ m)
        acc[i0:i1, 2] = G * ((dz * inv_r3) @ m)


def _energy(pos, vel, m, G):
    """(kinetic, potential) energy; the potential is -G sum_{i<j} m_i m_j / r_ij, unsoftened."""
    N = pos.shape[0]
    half = pos.dtype.type(0.5)
    ke = half * np.sum(m[:, None] * vel * vel)
    x, y, z = pos[:, 0], pos[:, 1], pos[:, 2]
    rows = max(1, _BLOCK // N)
    pe = pos.dtype.type(0)
    cols = np.arange(N)
    for i0 in range(0, N, rows):
        i1 = min(N, i0 + rows)
        dx = x[None, :] - x[i0:i1, None]
        dy = y[None, :] - y[i0:i1, None]
        dz = z[None, :] - z[i0:i1, None]
        r = np.sqrt(dx * dx + dy * dy + dz * dz)
        upper = (cols[None, :] > np.arange(i0, i1)[:, None]) & (r > 0)
        terms = np.where(upper, m[i0:i1, None] * m[None, :] / np.where(upper, r, 1), 0)
        pe = pe - np.sum(terms)
    return ke, G * pe


def nbody(mass, pos, vel, KE, PE, N, Nt, G, dt, softening, total_mass):
    """Nt leapfrog steps of the softened N-body problem; energies recorded at every step."""
    acc = np.empty_like(pos)  # the accelerations: local, as in NPBench
    half = pos.dtype.type(0.5)
    m = mass * (total_mass / np.sum(mass))
    vel -= np.mean(m[:, None] * vel, axis=0) / np.mean(m)
    _accel(pos, m, G, softening, acc)
    KE[0], PE[0] = _energy(pos, vel, m, G)
    for t in range(Nt):
        vel += acc * (dt * half)
        pos += vel * dt
        _accel(pos, m, G, softening, acc)
        vel += acc * (dt * half)
        KE[t + 1], PE[t + 1] = _energy(pos, vel, m, G)
