import numpy as np


def conv2d_group_norm_scale_max_pool_clamp(bias, gn_bias, gn_weight, out, scale, weight, x, C, CG, G, H, K, N, P, W, clamp_max, clamp_min, eps):
    """clip(MaxPool2d(GroupNorm(conv2d(x, weight) + bias) * scale), clamp_min, clamp_max)."""
    O = G * CG
    Ho, Wo = H - K + 1, W - K + 1
    acc = np.zeros((O, N, Ho, Wo), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            # contract the input channels of one kernel tap: (O, C) . (N, C, Ho, Wo)
            acc += np.tensordot(weight[:, :, p, q], x[:, :, p:p + Ho, q:q + Wo], axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3) + bias[:, None, None]
    v = c
    z = v.reshape(N, G, CG * Ho * Wo)
    cnt = CG * Ho * Wo
    mean = z.sum(axis=2) / cnt
    d = z - mean[:, :, None]
    var = (d * d).sum(axis=2) / cnt
    y = (d / np.sqrt(var + eps)[:, :, None]).reshape(N, O, Ho, Wo)
    y = y * gn_weight[:, None, None] + gn_bias[:, None, None]
    y = y * scale[:, None, None]
    Hp, Wp = Ho // P, Wo // P
    q = y[:, :, :Hp * P, :Wp * P].reshape(N, O, Hp, P, Wp, P).max(axis=5).max(axis=3)
    out[...] = np.clip(q, clamp_min, clamp_max)
