import numpy as np

_BLOCK = 1 << 21  # pair terms per chunk of evaluation points


def gem(apos, charge, pos, phi, diel, kappa, natoms, npoints):
    """Screened-Coulomb potential phi_i = sum_j q_j exp(-kappa r_ij) / (diel r_ij)."""
    chunk = max(1, _BLOCK // max(natoms, 1))
    for i0 in range(0, npoints, chunk):
        i1 = min(npoints, i0 + chunk)
        dx = pos[i0:i1, 0:1] - apos[:, 0][None, :]
        dy = pos[i0:i1, 1:2] - apos[:, 1][None, :]
        dz = pos[i0:i1, 2:3] - apos[:, 2][None, :]
        r = np.sqrt(dx * dx + dy * dy + dz * dz)
        phi[i0:i1] = np.sum(charge[None, :] * np.exp(-kappa * r) / (diel * r), axis=1)
