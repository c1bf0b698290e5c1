import numpy as np


def _bn(v, gamma, beta, mean, var, eps):
    scale = gamma / np.sqrt(var + eps)
    return (v - mean[:, None, None]) * scale[:, None, None] + beta[:, None, None]


def _grouped_conv1x1(x, w, groups):
    """Bias-free grouped 1x1 convolution: x (N, groups*cin_g, H, W), w (groups*cout_g, cin_g)."""
    n, c, h, wd = x.shape
    cin_g = c // groups
    cout_g = w.shape[0] // groups
    xg = x.reshape(n, groups, cin_g, h, wd)
    wg = w.reshape(groups, cout_g, cin_g)
    # y[n, g, o, h, w] = sum_i wg[g, o, i] * xg[n, g, i, h, w]
    y = np.matmul(wg[None, :, :, :], xg.reshape(n, groups, cin_g, h * wd))
    return y.reshape(n, groups * cout_g, h, wd)


def _depthwise3x3_same(x, w):
    """Bias-free depthwise 3x3 convolution with zero padding 1: x (N C H W), w (C 3 3)."""
    H, W = x.shape[2], x.shape[3]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    acc = np.zeros_like(x)
    for p in range(3):
        for q in range(3):
            acc += xp[:, :, p:p + H, q:q + W] * w[:, p, q][:, None, None]
    return acc


def shufflenet_unit(x, conv1_w, bn1_gamma, bn1_beta, bn1_mean, bn1_var,
                    conv2_w, bn2_gamma, bn2_beta, bn2_mean, bn2_var,
                    conv3_w, bn3_gamma, bn3_beta, bn3_mean, bn3_var,
                    shortcut_w, shortcut_bn_gamma, shortcut_bn_beta, shortcut_bn_mean, shortcut_bn_var, out,
                    batch_size, groups, in_per_group, mid_per_group, height, width, eps):
    """Grouped 1x1 conv, depthwise 3x3 conv, channel shuffle, grouped 1x1 conv, plus a projected shortcut."""
    h = np.maximum(_bn(_grouped_conv1x1(x, conv1_w, groups), bn1_gamma, bn1_beta, bn1_mean, bn1_var, eps), 0)
    h = _bn(_depthwise3x3_same(h, conv2_w), bn2_gamma, bn2_beta, bn2_mean, bn2_var, eps)
    # Channel shuffle: view channels as groups x mid_per_group and transpose to mid_per_group x groups.
    h = h.reshape(batch_size, groups, mid_per_group, height, width).transpose(0, 2, 1, 3, 4)
    h = h.reshape(batch_size, groups * mid_per_group, height, width)
    h = np.maximum(_bn(_grouped_conv1x1(h, conv3_w, groups), bn3_gamma, bn3_beta, bn3_mean, bn3_var, eps), 0)
    sc = np.tensordot(x, shortcut_w, axes=([1], [1])).transpose(0, 3, 1, 2)
    out[:] = h + _bn(sc, shortcut_bn_gamma, shortcut_bn_beta, shortcut_bn_mean, shortcut_bn_var, eps)
