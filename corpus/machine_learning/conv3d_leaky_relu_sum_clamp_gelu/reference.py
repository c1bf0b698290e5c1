import math

import numpy as np
from scipy.special import erf


def conv3d_leaky_relu_sum_clamp_gelu(bias, out, sum_tensor, weight, x, C, D, H, K, N, O, W, negative_slope):
    """GELU(clip(LeakyReLU(conv3d(x, weight) + bias) + sum_tensor, -1, 1))."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    v = np.where(c > 0, c, negative_slope * c)
    u = np.clip(v + sum_tensor[:, None, None, None], -1.0, 1.0)
    out[...] = u * (0.5 * (1 + erf(u / math.sqrt(2))))
