import numpy as np


def batch_norm(beta, gamma, out, x, C, H, N, W, eps):
    """Normalize each channel of x (N x C x H x W) with its batch mean and biased variance, then scale and shift."""
    axes = (0, 2, 3)
    mean = x.mean(axis=axes, keepdims=True)
    centered = x - mean
    var = (centered * centered).mean(axis=axes, keepdims=True)
    scale = gamma.reshape(1, C, 1, 1) / np.sqrt(var + eps)
    out[:] = centered * scale + beta.reshape(1, C, 1, 1)
