import numpy as np


def _flux(rho, m0, m1, m2, E, n0, n1, n2, gamma, t):
    msq = m0 * m0 + m1 * m1 + m2 * m2
    p = (gamma - t(1)) * (E - t(0.5) * msq / rho)
    mn = m0 * n0 + m1 * n1 + m2 * n2
    vn = mn / rho
    return mn, vn * m0 + p * n0, vn * m1 + p * n1, vn * m2 + p * n2, (E + p) * vn


def cfd(density, energy, momentum, neigh, normals, res_density, res_energy, res_momentum,
        alpha, gamma, ncells):
    """Lax-Friedrichs flux residual summed over each cell's 4 face neighbours."""
    t = density.dtype.type
    h = t(0.5)
    ha = h * alpha
    rd = np.zeros(ncells, dtype=density.dtype)
    re = np.zeros(ncells, dtype=density.dtype)
    rm = np.zeros((ncells, 3), dtype=density.dtype)
    m0, m1, m2 = momentum[:, 0], momentum[:, 1], momentum[:, 2]
    for j in range(4):
        nb = neigh[:, j]
        n0, n1, n2 = normals[:, j, 0], normals[:, j, 1], normals[:, j, 2]
        rho_n, E_n = density[nb], energy[nb]
        k0, k1, k2 = m0[nb], m1[nb], m2[nb]
        fi = _flux(density, m0, m1, m2, energy, n0, n1, n2, gamma, t)
        fn = _flux(rho_n, k0, k1, k2, E_n, n0, n1, n2, gamma, t)
        rd += h * (fi[0] + fn[0]) - ha * (rho_n - density)
        rm[:, 0] += h * (fi[1] + fn[1]) - ha * (k0 - m0)
        rm[:, 1] += h * (fi[2] + fn[2]) - ha * (k1 - m1)
        rm[:, 2] += h * (fi[3] + fn[3]) - ha * (k2 - m2)
        re += h * (fi[4] + fn[4]) - ha * (E_n - energy)
    res_density[:] = rd
    res_momentum[:] = rm
    res_energy[:] = re
