import numpy as np


def conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded(out, weight, x, C, H, KH, KW, N, O, PAD_H, PAD_W, W):
    """Transposed convolution: pixel (i, j) scatters weight[:, :, p, q]-weighted copies to (i+p, j+q), then PAD_H rows and PAD_W columns cropped from each side."""
    xl = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(N * H * W, C)  # channels last, one row per pixel
    acc = np.zeros((N, H + KH - 1, W + KW - 1, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(KH):
        for q in range(KW):
            acc[:, p:p + H, q:q + W, :] += (xl @ weight[:, :, p, q]).reshape(N, H, W, O)
    out[...] = acc[:, PAD_H:PAD_H + H + KH - 1 - 2 * PAD_H, PAD_W:PAD_W + W + KW - 1 - 2 * PAD_W, :].transpose(0, 3, 1, 2)
