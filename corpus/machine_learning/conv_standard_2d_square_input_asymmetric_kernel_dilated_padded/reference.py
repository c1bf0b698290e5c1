import numpy as np


def conv_standard_2d_square_input_asymmetric_kernel_dilated_padded(out, weight, x, C, DIL_H, DIL_W, H, KH, KW, N, O, PAD_H, PAD_W, W):
    """Stride-1 2-D convolution of the zero-padded x with a KH x KW kernel whose taps are DIL_H rows, DIL_W columns apart, no bias."""
    Ho = H + 2 * PAD_H - DIL_H * (KH - 1)
    Wo = W + 2 * PAD_W - DIL_W * (KW - 1)
    xp = np.pad(x, ((0, 0), (0, 0), (PAD_H, PAD_H), (PAD_W, PAD_W)))
    acc = np.zeros((N, Ho, Wo, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(KH):
        for q in range(KW):
            i, j = p * DIL_H, q * DIL_W
            acc += np.tensordot(xp[:, :, i:i + Ho, j:j + Wo], weight[:, :, p, q], axes=([1], [1]))
    out[...] = acc.transpose(0, 3, 1, 2)
