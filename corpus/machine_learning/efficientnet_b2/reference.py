import math

import numpy as np

# conv weights are conv_w values times sqrt(g/fan_in): He's uniform bound (g = 6 before a rectifier, 3 without)
# with g divided by 1.2, the BatchNorms' mean gain E[gamma^2/var], so activations keep their second moment
GAIN_ACT = 5.0
GAIN_LINEAR = 2.5


class _Params:
    """Hands out the packed parameters in network order: conv_w holds every convolution's filter
    (O x C/groups x K x K, row-major) one after another, each scaled by sqrt(g/fan_in) with
    fan_in = C/groups*K*K and g = GAIN_ACT where a rectifier follows, GAIN_LINEAR where none does;
    bn_gamma, bn_beta, bn_mean, bn_var hold every BatchNorm's channels, BatchNorm after BatchNorm."""

    def __init__(self, conv_w, bn_gamma, bn_beta, bn_mean, bn_var, eps):
        self.conv_w, self.gamma, self.beta, self.mean, self.var, self.eps = conv_w, bn_gamma, bn_beta, bn_mean, bn_var, eps
        self.w_at = 0
        self.bn_at = 0

    def conv(self, o, cg, k, act=True, g=None):
        n = o * cg * k * k
        if g is None:
            g = GAIN_ACT if act else GAIN_LINEAR
        w = self.conv_w[self.w_at:self.w_at + n].reshape(o, cg, k, k) * math.sqrt(g / (cg * k * k))
        self.w_at += n
        return w

    def bn(self, x):
        """Inference-mode BatchNorm of an N x C x H x W batch with the next C channels' statistics."""
        c = x.shape[1]
        s = slice(self.bn_at, self.bn_at + c)
        self.bn_at += c
        scale = self.gamma[s] / np.sqrt(self.var[s] + self.eps)
        shift = self.beta[s] - self.mean[s] * scale  # (x - mean)*scale + beta, folded
        return x * scale[:, None, None] + shift[:, None, None]

    def done(self):
        assert self.w_at == self.conv_w.size and self.bn_at == self.gamma.size


def _conv(x, w, stride, pad):
    """Bias-free dense convolution of an N x C x H x W batch; w is O x C x K x K (OIHW)."""
    n, c, h, wd = x.shape
    o, _, k, _ = w.shape
    if k == 1 and stride == 1 and pad == 0:
        return np.matmul(w.reshape(o, c), x.reshape(n, c, h * wd)).reshape(n, o, h, wd)
    ho = (h + 2 * pad - k) // stride + 1
    wo = (wd + 2 * pad - k) // stride + 1
    xp = np.zeros((n, c, h + 2 * pad, wd + 2 * pad), dtype=x.dtype)
    xp[:, :, pad:pad + h, pad:pad + wd] = x
    taps = np.ascontiguousarray(w.transpose(2, 3, 0, 1))  # K x K x O x C, contiguous for BLAS
    acc = np.zeros((n, o, ho * wo), dtype=x.dtype)
    for p in range(k):
        for q in range(k):
            patch = xp[:, :, p:p + stride * (ho - 1) + 1:stride, q:q + stride * (wo - 1) + 1:stride]
            acc += np.matmul(taps[p, q], patch.reshape(n, c, ho * wo))
    return acc.reshape(n, o, ho, wo)


def _depthwise(x, w, stride, pad):
    """Bias-free depthwise convolution (groups = channels) of an N x C x H x W batch; w is C x 1 x K x K."""
    n, c, h, wd = x.shape
    k = w.shape[2]
    ho = (h + 2 * pad - k) // stride + 1
    wo = (wd + 2 * pad - k) // stride + 1
    xp = np.zeros((n, c, h + 2 * pad, wd + 2 * pad), dtype=x.dtype)
    xp[:, :, pad:pad + h, pad:pad + wd] = x
    acc = np.zeros((n, c, ho, wo), dtype=x.dtype)
    for p in range(k):
        for q in range(k):
            acc += xp[:, :, p:p + stride * (ho - 1) + 1:stride, q:q + stride * (wo - 1) + 1:stride] * w[:, 0, p, q][:, None, None]
    return acc


# MBConv blocks (in, out in units of width_unit; stride; expand ratio)
_BLOCKS = [(4, 12, 1, 3), (12, 18, 2, 6), (18, 24, 2, 6), (24, 36, 2, 6), (36, 48, 1, 6)]


def efficientnet_b2(x, conv_w, bn_gamma, bn_beta, bn_mean, bn_var, fc_w, fc_b, out,
                    batch_size, height, width, width_unit, num_classes, eps):
    """EfficientNet-B2 as KernelBench writes it: the squeeze-and-excitation layers sit in line in each block's
    nn.Sequential, so the block's average pool collapses the map to 1 x 1 and the sigmoid feeds the projection."""
    P = _Params(conv_w, bn_gamma, bn_beta, bn_mean, bn_var, eps)
    u = width_unit
    h = np.maximum(P.bn(_conv(x, P.conv(4 * u, 3, 3), 2, 1)), 0)
    for cin, cout, stride, t in _BLOCKS:
        e = cin * u * t
        if t != 1:
            h = np.maximum(P.bn(_conv(h, P.conv(e, cin * u, 1), 1, 0)), 0)
        h = np.maximum(P.bn(_depthwise(h, P.conv(e, 1, 3), stride, 1)), 0)
        h = h.mean(axis=(2, 3), keepdims=True)                        # AdaptiveAvgPool2d((1, 1))
        h = np.maximum(_conv(h, P.conv(e // 4, e, 1), 1, 0), 0)         # squeeze 1x1 conv, ReLU
        h = 1 / (1 + np.exp(-_conv(h, P.conv(e, e // 4, 1, act=False), 1, 0)))  # excite 1x1 conv, sigmoid
        h = P.bn(_conv(h, P.conv(cout * u, e, 1, act=False), 1, 0))  # projection 1x1 conv, BatchNorm
    h = np.maximum(P.bn(_conv(h, P.conv(176 * u, 48 * u, 1), 1, 0)), 0)
    P.done()
    pooled = h.mean(axis=(2, 3))
    f = 176 * u
    out[:] = pooled @ (fc_w * (1 / math.sqrt(f))) + fc_b * (1 / math.sqrt(f))
