import numpy as np


def conv_standard_1d_dilated_strided(out, weight, x, C, DIL, K, L, N, O, STRIDE):
    """1-D convolution of x (N x C x L) with weight (O x C x K): taps DIL apart, outputs every STRIDE, no padding, no bias."""
    Lo = (L - DIL * (K - 1) - 1) // STRIDE + 1
    acc = np.zeros((N, O, Lo), dtype=x.dtype)
    for k in range(K):
        start = k * DIL
        # (O x C) @ (N x C x Lo) broadcasts to N x O x Lo: one matrix product per tap
        acc += weight[:, :, k] @ x[:, :, start:start + (Lo - 1) * STRIDE + 1:STRIDE]
    out[...] = acc
