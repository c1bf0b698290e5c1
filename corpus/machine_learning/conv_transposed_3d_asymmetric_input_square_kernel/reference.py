import numpy as np


def conv_transposed_3d_asymmetric_input_square_kernel(out, weight, x, C, D, H, K, N, O, W):
    """Transposed convolution: voxel (d, h, w) scatters weight[:, :, a, b, e]-weighted copies to (d+a, h+b, w+e)."""
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)).reshape(N * D * H * W, C)  # channels last, one row per voxel
    acc = np.zeros((N, D + K - 1, H + K - 1, W + K - 1, O), dtype=x.dtype)  # channels last while accumulating
    for a in range(K):
        for b in range(K):
            for e in range(K):
                contrib = (xl @ weight[:, :, a, b, e]).reshape(N, D, H, W, O)
                acc[:, a:a + D, b:b + H, e:e + W, :] += contrib
    out[...] = acc.transpose(0, 4, 1, 2, 3)
