import numpy as np


def conv_standard_2d_square_input_asymmetric_kernel(out, weight, x, C, H, KH, KW, N, O, W):
    """Stride-1, unpadded 2-D convolution of x (NCHW) with weight (O x C x KH x KW), no bias."""
    Ho, Wo = H - KH + 1, W - KW + 1
    acc = np.zeros((N, Ho, Wo, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(KH):
        for q in range(KW):
            acc += np.tensordot(x[:, :, p:p + Ho, q:q + Wo], weight[:, :, p, q], axes=([1], [1]))
    out[...] = acc.transpose(0, 3, 1, 2)
