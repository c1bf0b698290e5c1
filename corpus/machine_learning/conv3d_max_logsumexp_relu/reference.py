import numpy as np


def conv3d_max_logsumexp_relu(bias, out, weight, x, C, D, H, K, N, O, PAD, W):
    """relu(logsumexp over channels of MaxPool3d(conv3d(x padded by PAD, weight) + bias, 2))."""
    D, H, W = D + 2 * PAD, H + 2 * PAD, W + 2 * PAD
    x = np.pad(x, ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD), (PAD, PAD)))
    Do, Ho, Wo = D - K + 1, H - K + 1, W - K + 1
    acc = np.zeros((O, N, Do, Ho, Wo), dtype=x.dtype)
    for a in range(K):
        for p in range(K):
            for q in range(K):
                # contract the input channels of one kernel tap: (O, C) . (N, C, Do, Ho, Wo)
                tap = x[:, :, a:a + Do, p:p + Ho, q:q + Wo]
                acc += np.tensordot(weight[:, :, a, p, q], tap, axes=([1], [1]))
    c = acc.transpose(1, 0, 2, 3, 4) + bias[:, None, None, None]
    n1, n2, n3 = Do // 2, Ho // 2, Wo // 2
    m = c[:, :, :2 * n1, :2 * n2, :2 * n3].reshape(N, O, n1, 2, n2, 2, n3, 2)
    m = m.max(axis=7).max(axis=5).max(axis=3)
    top = m.max(axis=1)
    lse = top + np.log(np.exp(m - top[:, None]).sum(axis=1))
    out[:, 0] = np.maximum(lse, 0)
