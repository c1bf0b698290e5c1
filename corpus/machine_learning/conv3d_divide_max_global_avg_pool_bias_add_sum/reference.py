import numpy as np


def conv3d_divide_max_global_avg_pool_bias_add_sum(add_bias, bias, out, weight, x, C, D, H, K, N, O, P, W, divisor):
    """Channel sum of the global mean of MaxPool3d(conv3d(x, weight) + bias) / divisor, plus add_bias."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    v = c / divisor
    n1, n2, n3 = Do // P, Ho // P, Wo // P
    q = v[:, :, :n1 * P, :n2 * P, :n3 * P].reshape(N, O, n1, P, n2, P, n3, P)
    q = q.max(axis=7).max(axis=5).max(axis=3)
    a = q.reshape(N, O, n1 * n2 * n3).sum(axis=2) / (n1 * n2 * n3)
    out[...] = (a + add_bias).sum(axis=1).reshape(N, 1, 1, 1)
