import numpy as np


def conv3d_scaling_tanh_multiply_sigmoid(bias, bias_mult, out, scale, weight, x, C, D, H, K, N, O, W):
    """sigmoid(tanh((conv3d(x, weight) + bias) * scale) * bias_mult)."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    t = np.tanh(c * scale[:, None, None, None]) * bias_mult[:, None, None, None]
    out[...] = 1 / (1 + np.exp(-t))
