import numpy as np


def stencil_4d_vc(b_grid, in_grid, out_grid, w_dist, B, N, R):
    """Radius-R star stencil over B independent grids (B x N x N x N); neighbour indices clamp to [0, N-1]."""
    pos = np.arange(N)
    acc = w_dist[R] * in_grid
    for r in range(1, R + 1):
        lo = np.maximum(pos - r, 0)
        hi = np.minimum(pos + r, N - 1)
        ring = (in_grid[:, lo, :, :] + in_grid[:, hi, :, :]
                + in_grid[:, :, lo, :] + in_grid[:, :, hi, :]
                + in_grid[:, :, :, lo] + in_grid[:, :, :, hi])
        acc = acc + w_dist[r - 1] * ring
    out_grid[...] = acc * in_grid + b_grid * in_grid
