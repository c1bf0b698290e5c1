import numpy as np


def conv_transposed_1d_dilated(out, weight, x, C, DIL, K, L, N, O):
    """Transposed convolution: input position t scatters weight[:, :, k]-weighted copies to t + k*DIL."""
    acc = np.zeros((N, O, L + DIL * (K - 1)), dtype=x.dtype)
    for k in range(K):
        start = k * DIL
        # (O x C) @ (N x C x L) broadcasts to N x O x L
        acc[:, :, start:start + L] += weight[:, :, k].T @ x
    out[...] = acc
