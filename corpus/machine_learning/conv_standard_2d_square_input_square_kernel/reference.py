import numpy as np


def conv_standard_2d_square_input_square_kernel(bias, out, weight, x, C, H, K, N, O, PAD, STRIDE, W):
    """K x K convolution of the zero-padded x taken every STRIDE, plus a per-channel bias (AlexNet's first layer)."""
    Ho = (H + 2 * PAD - K) // STRIDE + 1
    Wo = (W + 2 * PAD - K) // STRIDE + 1
    xp = np.pad(x, ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD)))
    acc = np.zeros((N, Ho, Wo, O), dtype=x.dtype)  # channels last while accumulating
    for p in range(K):
        for q in range(K):
            window = xp[:, :, p:p + (Ho - 1) * STRIDE + 1:STRIDE, q:q + (Wo - 1) * STRIDE + 1:STRIDE]
            acc += np.tensordot(window, weight[:, :, p, q], axes=([1], [1]))
    acc += bias
    out[...] = acc.transpose(0, 3, 1, 2)
