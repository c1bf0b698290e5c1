import numpy as np


def fdtd_2d(ex, ey, hz, fict, NX, NY, TMAX):
    """TMAX Yee-scheme steps updating ex, ey, hz in place."""
    for t in range(TMAX):
        ey[0, :] = fict[t]
        ey[1:, :] = ey[1:, :] - 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] = ex[:, 1:] - 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] = hz[:-1, :-1] - 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
