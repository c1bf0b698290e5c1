import numpy as np


def conv3d_softmax_max_pool_max_pool(bias, out, weight, x, C, D, H, K, N, O, P, W):
    """Two P x P x P max poolings of the channel softmax of conv3d(x, weight) + bias."""
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    e = np.exp(c - c.max(axis=1)[:, None])
    s = e / e.sum(axis=1)[:, None]
    for _ in range(2):
        n1, n2, n3 = (t // P for t in s.shape[2:])
        s = s[:, :, :n1 * P, :n2 * P, :n3 * P].reshape(N, O, n1, P, n2, P, n3, P)
        s = s.max(axis=7).max(axis=5).max(axis=3)
    out[...] = s
