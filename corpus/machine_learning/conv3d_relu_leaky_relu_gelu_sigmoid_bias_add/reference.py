import math

import numpy as np
from scipy.special import erf


def conv3d_relu_leaky_relu_gelu_sigmoid_bias_add(add_bias, bias, out, weight, x, C, D, H, K, N, O, W, negative_slope):
    """sigmoid(GELU(LeakyReLU(relu(conv3d(x, weight) + bias)))) + add_bias."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    r = np.maximum(c, 0)
    l = np.where(r > 0, r, negative_slope * r)
    g = l * (0.5 * (1 + erf(l / math.sqrt(2))))
    out[...] = 1 / (1 + np.exp(-g)) + add_bias[:, None, None, None]
