import numpy as np


def _conv5x5_valid(xt, w, b):
    """Stride-1 unpadded 5x5 convolution plus bias on channel-first data:
    xt (C N H W), w (5 5 C O) HWIO -> (O N H-4 W-4); out[o] = sum_{p,q,c} xt[c, :, i+p, j+q] * w[p, q, c, o] + b[o]."""
    K, C, O = w.shape[0], w.shape[2], w.shape[3]
    N, Ho, Wo = xt.shape[1], xt.shape[2] - K + 1, xt.shape[3] - K + 1
    cols = np.empty((K, K, C, N, Ho, Wo), dtype=xt.dtype)     # im2col, rows in w's (p, q, c) order
    for p in range(K):
        for q in range(K):
            cols[p, q] = xt[:, :, p:p + Ho, q:q + Wo]
    y = w.reshape(K * K * C, O).T @ cols.reshape(K * K * C, N * Ho * Wo)
    return y.reshape(O, N, Ho, Wo) + b[:, None, None, None]


def _max_pool2(xt):
    """2x2 max pool, stride 2, on (C N H W); an odd last row or column is dropped (floor)."""
    c, n, h, w = xt.shape
    h2, w2 = h // 2, w // 2
    return xt[:, :, :2 * h2, :2 * w2].reshape(c, n, h2, 2, w2, 2).max(axis=(3, 5))


def lenet(input, conv1, conv1bias, conv2, conv2bias, fc1w, fc1b, fc2w, fc2b, fc3w, fc3b, out, N, H, W):
    """LeNet-5 inference on NHWC single-channel images (NPBench's lenet); computed channel-first inside."""
    x = input.transpose(3, 0, 1, 2)                                      # 1 x N x H x W
    x = _max_pool2(np.maximum(_conv5x5_valid(x, conv1, conv1bias), 0))   # 6 x N x (H-4)/2 x (W-4)/2
    x = _max_pool2(np.maximum(_conv5x5_valid(x, conv2, conv2bias), 0))   # 16 x N x Hp x Wp
    x = x.transpose(1, 2, 3, 0).reshape(N, x.shape[2] * x.shape[3] * x.shape[0])   # NHWC flatten: (row, column, channel)
    x = np.maximum(x @ fc1w + fc1b, 0)
    x = np.maximum(x @ fc2w + fc2b, 0)
    out[:] = x @ fc3w + fc3b
