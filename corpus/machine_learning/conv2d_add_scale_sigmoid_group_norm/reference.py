import numpy as np


def conv2d_add_scale_sigmoid_group_norm(add_bias, bias, gn_bias, gn_weight, out, scale, weight, x, C, CG, G, H, K, N, W, eps):
    """GroupNorm of sigmoid((conv2d(x, weight) + bias + add_bias) * scale)."""
    O = G * CG
    Ho, Wo = H - K + 1, W - K + 1
    acc = np.zeros((O, N, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            # contract the input channels of one kernel tap: (O, C) . (N, C, Ho, Wo)
            acc += np.tensordot(weight[:, :, p, q], x[:, :, p:p + Ho, q:q + Wo], axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3) + bias[:, None, None]
    v = 1 / (1 + np.exp(-((c + add_bias[:, None, None]) * scale[:, None, None])))
    z = v.reshape(N, G, CG * Ho * Wo)
    cnt = CG * Ho * Wo
    mean = z.sum(axis=2) / cnt
    d = z - mean[:, :, None]
    var = (d * d).sum(axis=2) / cnt
    y = (d / np.sqrt(var + eps)[:, :, None]).reshape(N, O, Ho, Wo)
    y = y * gn_weight[:, None, None] + gn_bias[:, None, None]
    out[...] = y
