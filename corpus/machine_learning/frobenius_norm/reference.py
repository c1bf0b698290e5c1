import numpy as np


def frobenius_norm(out, x, C, H, N, W):
    """Divide every entry of x (N x C x H x W) by the Frobenius norm of the whole tensor."""
    norm = np.sqrt(np.sum(x * x))
    out[:] = x / norm
