import numpy as np


def edge_laplacian(dst, lap, src, u, w, E, N):
    """lap[v] = sum over edges at v of w * (u[other end] - u[v]), by a scatter of edge fluxes."""
    flux = w * (u[dst] - u[src])
    total = np.bincount(src, weights=flux, minlength=N) - np.bincount(dst, weights=flux, minlength=N)
    lap[:] = total.astype(lap.dtype)
