import numpy as np


def conv_transposed_3d_square_input_asymmetric_kernel(out, weight, x, C, D, H, KD, KH, KW, N, O, W):
    """Transposed convolution: voxel (d, w, h) scatters weight[:, :, a, b, e]-weighted copies to (d+a, w+b, h+e)."""
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)).reshape(N * D * W * H, C)  # channels last, one row per voxel
    acc = np.zeros((N, D + KD - 1, W + KW - 1, H + KH - 1, O), dtype=x.dtype)  # channels last while accumulating
    for a in range(KD):
        for b in range(KW):
            for e in range(KH):
                contrib = (xl @ weight[:, :, a, b, e]).reshape(N, D, W, H, O)
                acc[:, a:a + D, b:b + W, e:e + H, :] += contrib
    out[...] = acc.transpose(0, 4, 1, 2, 3)
