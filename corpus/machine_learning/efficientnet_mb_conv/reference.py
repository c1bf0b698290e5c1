import numpy as np


def _bn(v, gamma, beta, mean, var, eps):
    """Inference-mode BatchNorm over axis 0 of a (C, H, W) image: running statistics."""
    scale = gamma / np.sqrt(var + eps)
    return (v - mean[:, None, None]) * scale[:, None, None] + beta[:, None, None]


def _depthwise(x, w, stride, pad):
    """Bias-free depthwise KxK convolution of one (C, H, W) image, zero padding, given stride."""
    c, h, wd = x.shape
    k = w.shape[1]
    ho = (h + 2 * pad - k) // stride + 1
    wo = (wd + 2 * pad - k) // stride + 1
    xp = np.zeros((c, h + 2 * pad, wd + 2 * pad), dtype=x.dtype)
    xp[:, pad:pad + h, pad:pad + wd] = x
    acc = np.zeros((c, ho, wo), dtype=x.dtype)
    for p in range(k):
        for q in range(k):
            acc += xp[:, p:p + stride * (ho - 1) + 1:stride, q:q + stride * (wo - 1) + 1:stride] * w[:, p, q][:, None, None]
    return acc


def efficientnet_mb_conv(x, expand_w, expand_bn_gamma, expand_bn_beta, expand_bn_mean, expand_bn_var,
                         dw_w, dw_bn_gamma, dw_bn_beta, dw_bn_mean, dw_bn_var,
                         project_w, project_bn_gamma, project_bn_beta, project_bn_mean, project_bn_var, out,
                         batch_size, in_channels, out_channels, hidden_dim, kernel_size, height, width, eps):
    """MBConv: 1x1 expand + BN + ReLU6, depthwise KxK stride 2 + BN + ReLU6, 1x1 project + BN (no residual)."""
    pad = (kernel_size - 1) // 2
    for n in range(batch_size):  # one image at a time keeps the hidden_dim-wide temporaries small
        h = (expand_w @ x[n].reshape(in_channels, height * width)).reshape(hidden_dim, height, width)
        h = np.clip(_bn(h, expand_bn_gamma, expand_bn_beta, expand_bn_mean, expand_bn_var, eps), 0, 6)
        h = np.clip(_bn(_depthwise(h, dw_w, 2, pad), dw_bn_gamma, dw_bn_beta, dw_bn_mean, dw_bn_var, eps), 0, 6)
        ho, wo = h.shape[1], h.shape[2]
        h = (project_w @ h.reshape(hidden_dim, ho * wo)).reshape(out_channels, ho, wo)
        out[n] = _bn(h, project_bn_gamma, project_bn_beta, project_bn_mean, project_bn_var, eps)
