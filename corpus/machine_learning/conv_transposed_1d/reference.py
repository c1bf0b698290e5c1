import numpy as np


def conv_transposed_1d(out, weight, x, C, K, L, N, O):
    """Transposed convolution: each input position t scatters weight[:, :, k]-weighted copies to t + k."""
    acc = np.zeros((N, O, L + K - 1), dtype=x.dtype)
    for k in range(K):
        # (O x C) @ (N x C x L) broadcasts to N x O x L
        acc[:, :, k:k + L] += weight[:, :, k].T @ x
    out[...] = acc
