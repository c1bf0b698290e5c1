import numpy as np


def _conv1x1(x, w, b):
    """1x1 convolution with bias: x (N C H W), w (O C)."""
    return np.tensordot(x, w, axes=([1], [1])).transpose(0, 3, 1, 2) + b[:, None, None]


def _conv_same(x, w, b):
    """Stride-1 KxK convolution (K odd) with zero padding K//2 and bias: x (N C H W), w (O C K K)."""
    K = w.shape[2]
    r = K // 2
    H, W = x.shape[2], x.shape[3]
    xp = np.pad(x, ((0, 0), (0, 0), (r, r), (r, r)))
    acc = np.zeros((x.shape[0], H, W, w.shape[0]), dtype=x.dtype)
    for p in range(K):
        for q in range(K):
            acc += np.tensordot(xp[:, :, p:p + H, q:q + W], w[:, :, p, q], axes=([1], [1]))
    return acc.transpose(0, 3, 1, 2) + b[:, None, None]


def _max_pool3x3_same(x):
    """3x3 max pool, stride 1, padding 1 (padded cells never win)."""
    H, W = x.shape[2], x.shape[3]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    m = xp[:, :, 0:H, 0:W].copy()
    for p in range(3):
        for q in range(3):
            np.maximum(m, xp[:, :, p:p + H, q:q + W], out=m)
    return m


def googlenet_inception_module(x, b1_w, b1_b, b3_reduce_w, b3_reduce_b, b3_w, b3_b,
                               b5_reduce_w, b5_reduce_b, b5_w, b5_b, pool_w, pool_b, out,
                               batch_size, height, width, in_channels, out_1x1, reduce_3x3, out_3x3,
                               reduce_5x5, out_5x5, pool_proj):
    """Inception block: 1x1, 1x1->3x3, 1x1->5x5 and maxpool->1x1 branches, concatenated over channels."""
    c0 = out_1x1
    c1 = c0 + out_3x3
    c2 = c1 + out_5x5
    out[:, :c0] = _conv1x1(x, b1_w, b1_b)
    out[:, c0:c1] = _conv_same(_conv1x1(x, b3_reduce_w, b3_reduce_b), b3_w, b3_b)
    out[:, c1:c2] = _conv_same(_conv1x1(x, b5_reduce_w, b5_reduce_b), b5_w, b5_b)
    out[:, c2:] = _conv1x1(_max_pool3x3_same(x), pool_w, pool_b)
