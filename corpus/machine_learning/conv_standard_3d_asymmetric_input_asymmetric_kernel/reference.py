import numpy as np


def conv_standard_3d_asymmetric_input_asymmetric_kernel(out, weight, x, C, D, H, KD, KH, KW, N, O, W):
    """Stride-1, unpadded 3-D convolution of x (NCDHW) with weight (O x C x KD x KH x KW), no bias."""
    Do, Ho, Wo = D - KD + 1, H - KH + 1, W - KW + 1
    acc = np.zeros((N, Do, Ho, Wo, O), dtype=x.dtype)  # channels last while accumulating
    for a in range(KD):
        for b in range(KH):
            for e in range(KW):
                window = x[:, :, a:a + Do, b:b + Ho, e:e + Wo]
                acc += np.tensordot(window, weight[:, :, a, b, e], axes=([1], [1]))
    out[...] = acc.transpose(0, 4, 1, 2, 3)
