import numpy as np


def conv2d_batch_norm_scaling(bias, bn_bias, bn_weight, out, weight, x, C, H, K, N, O, W, eps, scaling_factor):
    """scaling_factor times the training-mode BatchNorm2d of conv2d(x, weight) + bias."""
    Ho, Wo = H - K + 1, W - K + 1
    acc = np.zeros((O, N, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            # contract the input channels of one kernel tap: (O, C) . (N, C, Ho, Wo)
            acc += np.tensordot(weight[:, :, p, q], x[:, :, p:p + Ho, q:q + Wo], axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3) + bias[:, None, None]
    cnt = N * Ho * Wo
    mean = c.sum(axis=(0, 2, 3)) / cnt
    d = c - mean[:, None, None]
    var = (d * d).sum(axis=(0, 2, 3)) / cnt
    scale = bn_weight / np.sqrt(var + eps)
    out[...] = (d * scale[:, None, None] + bn_bias[:, None, None]) * scaling_factor
