import numpy as np


def _conv3x3_same(x, w):
    """Stride-1 3x3 convolution with zero padding 1, no bias: x (N C H W), w (O C 3 3)."""
    H, W = x.shape[2], x.shape[3]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    acc = np.zeros((x.shape[0], H, W, w.shape[0]), dtype=x.dtype)
    for p in range(3):
        for q in range(3):
            acc += np.tensordot(xp[:, :, p:p + H, q:q + W], w[:, :, p, q], axes=([1], [1]))
    return acc.transpose(0, 3, 1, 2)


def _conv1x1(x, w):
    """1x1 convolution, no bias: x (N C H W), w (O C)."""
    return np.tensordot(x, w, axes=([1], [1])).transpose(0, 3, 1, 2)


def _bn(v, gamma, beta, mean, var, eps):
    scale = gamma / np.sqrt(var + eps)
    return (v - mean[:, None, None]) * scale[:, None, None] + beta[:, None, None]


def resnet_basic_block(x, conv1_w, bn1_gamma, bn1_beta, bn1_mean, bn1_var,
                       conv2_w, bn2_gamma, bn2_beta, bn2_mean, bn2_var,
                       down_w, down_bn_gamma, down_bn_beta, down_bn_mean, down_bn_var, out,
                       batch_size, in_channels, out_channels, height, width, eps):
    """Two 3x3 conv+BN stages with a projected (1x1 conv + BN) shortcut, ReLU after the sum."""
    h = np.maximum(_bn(_conv3x3_same(x, conv1_w), bn1_gamma, bn1_beta, bn1_mean, bn1_var, eps), 0)
    h = _bn(_conv3x3_same(h, conv2_w), bn2_gamma, bn2_beta, bn2_mean, bn2_var, eps)
    shortcut = _bn(_conv1x1(x, down_w), down_bn_gamma, down_bn_beta, down_bn_mean, down_bn_var, eps)
    out[:] = np.maximum(h + shortcut, 0)
