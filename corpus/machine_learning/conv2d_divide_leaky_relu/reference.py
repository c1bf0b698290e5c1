import numpy as np


def conv2d_divide_leaky_relu(bias, out, weight, x, C, H, K, N, O, W, divisor, negative_slope):
    """LeakyReLU of (conv2d(x, weight) + bias) / divisor."""
    Ho, Wo = H - K + 1, W - K + 1
    acc = np.zeros((O, N, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            # contract the input channels of one kernel tap: (O, C) . (N, C, Ho, Wo)
            acc += np.tensordot(weight[:, :, p, q], x[:, :, p:p + Ho, q:q + Wo], axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3) + bias[:, None, None]
    v = c / divisor
    out[...] = np.where(v > 0, v, negative_slope * v)
