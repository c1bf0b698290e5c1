import numpy as np


def conv3d_group_norm_min_clamp_dropout(bias, gn_bias, gn_weight, out, weight, x, C, CG, D, G, H, K, N, W, clamp_max, clamp_min, eps, min_value):
    """clip(min(GroupNorm(conv3d(x, weight) + bias), min_value), clamp_min, clamp_max); dropout is the identity."""
    O = G * CG
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    v = c
    cnt = CG * Do * Ho * Wo
    z = v.reshape(N, G, cnt)
    mean = z.sum(axis=2) / cnt
    d = z - mean[:, :, None]
    var = (d * d).sum(axis=2) / cnt
    y = (d / np.sqrt(var + eps)[:, :, None]).reshape(N, O, Do, Ho, Wo)
    y = y * gn_weight[:, None, None, None] + gn_bias[:, None, None, None]
    out[...] = np.clip(np.minimum(y, min_value), clamp_min, clamp_max)
