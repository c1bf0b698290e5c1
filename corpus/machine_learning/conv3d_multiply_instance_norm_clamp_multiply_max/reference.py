import numpy as np


def conv3d_multiply_instance_norm_clamp_multiply_max(bias, multiplier, out, weight, x, C, D, H, K, N, O, W, clamp_max, clamp_min, eps):
    """Channel max of clip(InstanceNorm3d(c * multiplier)) * multiplier, c = conv3d(x, weight) + bias."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    mult = multiplier[:, None, None, None]
    v = (c * mult).reshape(N, O, Do * Ho * Wo)
    cnt = Do * Ho * Wo
    mean = v.sum(axis=2) / cnt
    d = v - mean[:, :, None]
    var = (d * d).sum(axis=2) / cnt
    y = (d / np.sqrt(var + eps)[:, :, None]).reshape(N, O, Do, Ho, Wo)
    out[...] = (np.clip(y, clamp_min, clamp_max) * mult).max(axis=1)
