import numpy as np


def group_norm(beta, gamma, out, x, CG, G, H, N, W, eps):
    """Normalize each group of CG channels of each sample of x (N x G*CG x H x W), then scale and shift per channel."""
    xg = x.reshape(N, G, CG * H * W)
    mean = xg.mean(axis=2, keepdims=True)
    centered = xg - mean
    var = (centered * centered).mean(axis=2, keepdims=True)
    normed = (centered / np.sqrt(var + eps)).reshape(N, G * CG, H, W)
    out[:] = normed * gamma.reshape(1, G * CG, 1, 1) + beta.reshape(1, G * CG, 1, 1)
