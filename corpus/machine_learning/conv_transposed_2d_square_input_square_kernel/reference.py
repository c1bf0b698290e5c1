import numpy as np


def conv_transposed_2d_square_input_square_kernel(out, weight, x, C, H, K, N, O, W):
    """Transposed convolution: pixel (i, j) scatters weight[:, :, p, q]-weighted copies to (i+p, j+q)."""
    acc = np.zeros((N, H + K - 1, W + K - 1, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(K):
        for q in range(K):
            acc[:, p:p + H, q:q + W, :] += np.tensordot(x, weight[:, :, p, q], axes=([1], [0]))
    out[...] = acc.transpose(0, 3, 1, 2)
