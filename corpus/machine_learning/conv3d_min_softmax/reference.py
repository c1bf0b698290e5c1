import numpy as np


def conv3d_min_softmax(bias, out, weight, x, C, D, H, K, N, O, W):
    """Softmax over channels of the minimum over depth of conv3d(x, weight) + bias."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    m = c.min(axis=2)
    e = np.exp(m - m.max(axis=1)[:, None])
    out[...] = e / e.sum(axis=1)[:, None]
