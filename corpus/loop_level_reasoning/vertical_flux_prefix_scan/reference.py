import numpy as np


def vertical_flux_prefix_scan(fall, flux, K, N):
    """flux[:, 0] = fall[:, 0]; flux[:, k] = 0.9 * flux[:, k-1] + fall[:, k] for k >= 1."""
    flux[:, 0] = fall[:, 0]
    for k in range(1, K):
        flux[:, k] = flux[:, k - 1] * 0.9 + fall[:, k]
