import numpy as np


def max_pooling_1d(out, x, C, DIL, K, L, N, PAD, STRIDE):
    """Maximum of each window {s*STRIDE + k*DIL : k < K} of x padded with -inf by PAD."""
    Lout = (L + 2 * PAD - DIL * (K - 1) - 1) // STRIDE + 1
    xp = np.pad(x, ((0, 0), (0, 0), (PAD, PAD)), constant_values=-np.inf)
    span = STRIDE * (Lout - 1) + 1
    out[...] = xp[:, :, 0:span:STRIDE]
    for k in range(1, K):
        np.maximum(out, xp[:, :, k * DIL:k * DIL + span:STRIDE], out=out)
