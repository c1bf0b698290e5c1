import numpy as np


def _conv1x1(x, w, b):
    """1x1 convolution with bias: x (N C H W), w (O C)."""
    return np.tensordot(x, w, axes=([1], [1])).transpose(0, 3, 1, 2) + b[:, None, None]


def _conv3x3_same(x, w, b):
    """Stride-1 3x3 convolution with zero padding 1 and bias: x (N C H W), w (O C 3 3)."""
    H, W = x.shape[2], x.shape[3]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    acc = np.zeros((x.shape[0], H, W, w.shape[0]), dtype=x.dtype)
    for p in range(3):
        for q in range(3):
            acc += np.tensordot(xp[:, :, p:p + H, q:q + W], w[:, :, p, q], axes=([1], [1]))
    return acc.transpose(0, 3, 1, 2) + b[:, None, None]


def squeezenet_fire_module(x, squeeze_w, squeeze_b, expand1x1_w, expand1x1_b, expand3x3_w, expand3x3_b, out,
                           batch_size, in_channels, squeeze_channels, expand1x1_channels, expand3x3_channels,
                           height, width):
    """Squeeze with a 1x1 conv, expand with parallel 1x1 and 3x3 convs, concatenate the channels."""
    s = np.maximum(_conv1x1(x, squeeze_w, squeeze_b), 0)
    out[:, :expand1x1_channels] = np.maximum(_conv1x1(s, expand1x1_w, expand1x1_b), 0)
    out[:, expand1x1_channels:] = np.maximum(_conv3x3_same(s, expand3x3_w, expand3x3_b), 0)
