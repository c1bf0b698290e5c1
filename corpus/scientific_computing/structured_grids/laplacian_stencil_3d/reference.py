import numpy as np


def laplacian_stencil_3d(out, psi, N, k):
    """Periodic 7-point Laplacian of each of the k fields psi[b] (neighbours wrap around)."""
    xm = np.concatenate((psi[:, -1:], psi[:, :-1]), axis=1)          # psi at x-1
    xp = np.concatenate((psi[:, 1:], psi[:, :1]), axis=1)            # psi at x+1
    ym = np.concatenate((psi[:, :, -1:], psi[:, :, :-1]), axis=2)
    yp = np.concatenate((psi[:, :, 1:], psi[:, :, :1]), axis=2)
    zm = np.concatenate((psi[:, :, :, -1:], psi[:, :, :, :-1]), axis=3)
    zp = np.concatenate((psi[:, :, :, 1:], psi[:, :, :, :1]), axis=3)
    out[:, :, :, :] = xm + xp + ym + yp + zm + zp - 6.0 * psi
