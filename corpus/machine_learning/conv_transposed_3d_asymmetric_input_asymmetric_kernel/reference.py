import numpy as np


def conv_transposed_3d_asymmetric_input_asymmetric_kernel(out, weight, x, C, D, H, KD, KH, KW, N, O, W):
    """Transposed convolution: voxel (d, h, w) scatters weight[:, :, a, b, e]-weighted copies to (d+a, h+b, w+e)."""
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 4, 1)).reshape(N * D * H * W, C)  # channels last, one row per voxel
    acc = np.zeros((N, D + KD - 1, H + KH - 1, W + KW - 1, O), dtype=x.dtype)  # channels last while accumulating
    for a in range(KD):
        for b in range(KH):
            for e in range(KW):
                contrib = (xl @ weight[:, :, a, b, e]).reshape(N, D, H, W, O)
                acc[:, a:a + D, b:b + H, e:e + W, :] += contrib
    out[...] = acc.transpose(0, 4, 1, 2, 3)
