import numpy as np


def conv_standard_1d(out, weight, x, C, K, L, N, O):
    """Stride-1, unpadded 1-D convolution of x (N x C x L) with weight (O x C x K), no bias."""
    Lout = L - K + 1
    # (O x C) @ (N x C x Lout) broadcasts to N x O x Lout: one matrix product per tap k
    acc = weight[:, :, 0] @ x[:, :, 0:Lout]
    for k in range(1, K):
        acc += weight[:, :, k] @ x[:, :, k:k + Lout]
    out[...] = acc
