import numpy as np


def cumsum(out, x, D, N):
    """Inclusive prefix sum of each row of x (N x D)."""
    out[:] = np.cumsum(x, axis=1)
