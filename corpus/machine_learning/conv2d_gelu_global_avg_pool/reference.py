import math

import numpy as np
from scipy.special import erf


def conv2d_gelu_global_avg_pool(bias, out, weight, x, C, H, K, N, O, W):
    """Per-channel mean over positions of GELU(conv2d(x, weight) + bias)."""
    Ho, Wo = H - K + 1, W - K + 1
    acc = np.zeros((O, N, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            # contract the input channels of one kernel tap: (O, C) . (N, C, Ho, Wo)
            acc += np.tensordot(weight[:, :, p, q], x[:, :, p:p + Ho, q:q + Wo], axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3) + bias[:, None, None]
    g = c * (0.5 * (1 + erf(c / math.sqrt(2))))
    out[...] = g.sum(axis=(2, 3)) / (Ho * Wo)
