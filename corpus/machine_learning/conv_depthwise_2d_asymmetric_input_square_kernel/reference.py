import numpy as np


def conv_depthwise_2d_asymmetric_input_square_kernel(out, weight, x, C, DM, H, K, N, PAD, W):
    """Each input channel c feeds DM output channels c*DM .. c*DM+DM-1, each its own K x K filter (stride 1, zero padding PAD)."""
    Ho = H + 2 * PAD - K + 1
    Wo = W + 2 * PAD - K + 1
    xp = np.pad(x, ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD)))
    w = weight.reshape(C, DM, K, K)  # output channel c*DM + m is w[c, m]
    acc = np.zeros((N, C, DM, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            acc += w[:, :, p, q, None, None] * xp[:, :, None, p:p + Ho, q:q + Wo]
    out[...] = acc.reshape(N, C * DM, Ho, Wo)
