import numpy as np


def conv_standard_3d_square_input_asymmetric_kernel(out, weight, x, C, D, H, KD, KH, KW, N, O, W):
    """Stride-1, unpadded 3-D convolution of x (N x C x W x H x D) with weight (O x C x KW x KH x KD), no bias."""
    Wo, Ho, Do = W - KW + 1, H - KH + 1, D - KD + 1
    acc = np.zeros((N, Wo, Ho, Do, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(KW):
        for q in range(KH):
            for r in range(KD):
                window = x[:, :, p:p + Wo, q:q + Ho, r:r + Do]
                acc += np.tensordot(window, weight[:, :, p, q, r], axes=([1], [1]))
    out[...] = acc.transpose(0, 4, 1, 2, 3)
