import numpy as np


def conv_depthwise_separable_2d(depthwise_weight, out, pointwise_weight, x, C, DIL, H, K, N, O, PAD, W):
    """Depthwise dilated K x K convolution of the zero-padded x, then a 1 x 1 convolution to O channels."""
    Ho = H + 2 * PAD - DIL * (K - 1)
    Wo = W + 2 * PAD - DIL * (K - 1)
    xp = np.pad(x, ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD)))
    mid = np.zeros((N, C, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            i, j = p * DIL, q * DIL
            mid += depthwise_weight[:, p, q, None, None] * xp[:, :, i:i + Ho, j:j + Wo]
    out[...] = (pointwise_weight @ mid.reshape(N, C, Ho * Wo)).reshape(N, O, Ho, Wo)
