import numpy as np


def _batchnorm_over_batch(x, eps):
    """NPBench's batchnorm2d: statistics over the batch axis only, one per (row, column, channel);
    note the square root of (standard deviation + eps), as upstream."""
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    return (x - mean) / np.sqrt(std + eps)


def resnet(input, conv1, conv2, conv3, out, N, W, H, C1, C2, eps):
    """ResNet-50 bottleneck residual block (NPBench's resnet), NHWC, inference."""
    # 1x1 convolution C1 -> C2
    t = (input.reshape(N * H * W, C1) @ conv1.reshape(C1, C2)).reshape(N, H, W, C2)
    # upstream normalizes the zero-padded array; its zero border stays zero, so normalize, then pad
    t = np.maximum(_batchnorm_over_batch(t, eps), 0)
    padded = np.zeros((N, H + 2, W + 2, C2), dtype=t.dtype)
    padded[:, 1:H + 1, 1:W + 1, :] = t
    # 3x3 convolution C2 -> C2, no padding (on the padded array): im2col with rows in (p, q, c) order
    cols = np.empty((N, H, W, 3, 3, C2), dtype=t.dtype)
    for p in range(3):
        for q in range(3):
            cols[:, :, :, p, q, :] = padded[:, p:p + H, q:q + W, :]
    t = (cols.reshape(N * H * W, 9 * C2) @ conv2.reshape(9 * C2, C2)).reshape(N, H, W, C2)
    t = np.maximum(_batchnorm_over_batch(t, eps), 0)
    # 1x1 convolution C2 -> C1
    t = (t.reshape(N * H * W, C2) @ conv3.reshape(C2, C1)).reshape(N, H, W, C1)
    t = _batchnorm_over_batch(t, eps)
    out[:] = np.maximum(t + input, 0)
