import numpy as np


def conv_depthwise_2d_square_input_square_kernel(out, weight, x, C, H, K, N, PAD, W):
    """Per-channel K x K convolution of the zero-padded x (stride 1), weight: C x K x K, no bias."""
    Ho = H + 2 * PAD - K + 1
    Wo = W + 2 * PAD - K + 1
    xp = np.pad(x, ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD)))
    acc = np.zeros((N, C, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            acc += weight[:, p, q, None, None] * xp[:, :, p:p + Ho, q:q + Wo]
    out[...] = acc
