import math

import numpy as np
from scipy.special import erf


def conv2d_multiply_leaky_relu_gelu(bias, multiplier, out, weight, x, C, H, K, N, O, W, negative_slope):
    """GELU of LeakyReLU of (conv2d(x, weight) + bias) * multiplier."""
    Ho, Wo = H - K + 1, W - K + 1
    acc = np.zeros((O, N, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            # contract the input channels of one kernel tap: (O, C) . (N, C, Ho, Wo)
            acc += np.tensordot(weight[:, :, p, q], x[:, :, p:p + Ho, q:q + Wo], axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3) + bias[:, None, None]
    v = c * multiplier[:, None, None]
    u = np.where(v > 0, v, negative_slope * v)
    out[...] = u * (0.5 * (1 + erf(u / math.sqrt(2))))
