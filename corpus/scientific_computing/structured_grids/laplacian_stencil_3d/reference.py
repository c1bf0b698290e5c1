import numpy as np


def laplacian_stencil_3d(out, psi, N, k):
    """Periodic 7-point Laplacian of each of the k fields psi[b]."""
    out[...] = (np.roll(psi, 1, axis=1) + np.roll(psi, -1, axis=1)
                + np.roll(psi, 1, axis=2) + np.roll(psi, -1, axis=2)
                + np.roll(psi, 1, axis=3) + np.roll(psi, -1, axis=3)
                - 6.0 * psi)
