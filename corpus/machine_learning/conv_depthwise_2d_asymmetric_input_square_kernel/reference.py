import numpy as np


def conv_depthwise_2d_asymmetric_input_square_kernel(out, weight, x, C, DM, H, K, N, PAD, W):
    """Each input channel c feeds DM output channels c*DM .. c*DM+DM-1, each its own K x K filter (stride 1, zero padding PAD)."""
    Ho = H + 2 * PAD - K + 1
    Wo = W + 2 * PAD - K + 1
    # output channel o reads input channel o // DM: repeat every input channel DM times
    xp = np.pad(np.repeat(x, DM, axis=1), ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD)))
    acc = np.zeros((N, C * DM, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            acc += weight[:, p, q, None, None] * xp[:, :, p:p + Ho, q:q + Wo]
    out[...] = acc
