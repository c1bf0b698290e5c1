import numpy as np


def _conv2d_valid(x, w, b):
    """Stride-1 unpadded convolution of x (N C H W) with w (O C KH KW), plus bias."""
    KH, KW = w.shape[2], w.shape[3]
    Ho, Wo = x.shape[2] - KH + 1, x.shape[3] - KW + 1
    acc = np.zeros((x.shape[0], Ho, Wo, w.shape[0]), dtype=x.dtype)
    for p in range(KH):
        for q in range(KW):
            acc += np.tensordot(x[:, :, p:p + Ho, q:q + Wo], w[:, :, p, q], axes=([1], [1]))
    return acc.transpose(0, 3, 1, 2) + b[:, None, None]


def _max_pool2(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def lenet5(x, conv1_w, conv1_b, conv2_w, conv2_b, fc1_w, fc1_b, fc2_w, fc2_b, fc3_w, fc3_b, out,
           batch_size, num_classes, conv1_channels, conv2_channels, fc1_size, fc2_size):
    """LeNet-5 forward pass on 32x32 single-channel images."""
    h = _max_pool2(np.maximum(_conv2d_valid(x, conv1_w, conv1_b), 0))   # N x c1 x 14 x 14
    h = _max_pool2(np.maximum(_conv2d_valid(h, conv2_w, conv2_b), 0))   # N x c2 x 5 x 5
    h = h.reshape(batch_size, conv2_channels * 25)
    h = np.maximum(h @ fc1_w + fc1_b, 0)
    h = np.maximum(h @ fc2_w + fc2_b, 0)
    out[:] = h @ fc3_w + fc3_b
