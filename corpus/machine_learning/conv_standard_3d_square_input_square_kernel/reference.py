import numpy as np


def conv_standard_3d_square_input_square_kernel(out, weight, x, C, D, H, K, N, O, W):
    """Stride-1, unpadded 3-D convolution of x (NCDHW) with weight (O x C x K x K x K), no bias."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((N, Do, Ho, Wo, O), dtype=x.dtype)  # channels last while accumulating
    for a in range(K):
        for b in range(K):
            for e in range(K):
                window = x[:, :, a:a + Do, b:b + Ho, e:e + Wo]
                acc += np.tensordot(window, weight[:, :, a, b, e], axes=([1], [1]))
    out[...] = acc.transpose(0, 4, 1, 2, 3)
