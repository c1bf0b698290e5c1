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


def _group_conv1x1(x, w, groups):
    """Bias-free grouped 1x1 convolution; w is O x C/groups x 1 x 1, group g maps input channels
    g*C/groups.. to output channels g*O/groups.."""
    n, c, h, wd = x.shape
    o = w.shape[0]
    wg = w.reshape(groups, o // groups, c // groups)
    y = np.matmul(wg[None], x.reshape(n, groups, c // groups, h * wd))
    return y.reshape(n, o, h, wd)


def _max_pool(x, k, stride, pad):
    """k x k max pool with the given stride and padding (padded cells never win)."""
    n, c, h, wd = x.shape
    ho = (h + 2 * pad - k) // stride + 1
    wo = (wd + 2 * pad - k) // stride + 1
    xp = np.full((n, c, h + 2 * pad, wd + 2 * pad), -np.inf, dtype=x.dtype)
    xp[:, :, pad:pad + h, pad:pad + wd] = x
    m = xp[:, :, 0:stride * (ho - 1) + 1:stride, 0:stride * (wo - 1) + 1:stride].copy()
    for p in range(k):
        for q in range(k):
            np.maximum(m, xp[:, :, p:p + stride * (ho - 1) + 1:stride, q:q + stride * (wo - 1) + 1:stride], out=m)
    return m


GROUPS = 3
GAIN_BRANCH = 1.0  # the closing conv of every unit: the identity shortcuts would otherwise compound the activations


def _unit(P, x, cin, cout):
    """ShuffleNet unit: grouped 1x1, depthwise 3x3, channel shuffle, grouped 1x1, plus the shortcut."""
    mid = cout // 4
    h = np.maximum(P.bn(_group_conv1x1(x, P.conv(mid, cin // GROUPS, 1), GROUPS)), 0)
    h = P.bn(_depthwise(h, P.conv(mid, 1, 3, act=False), 1, 1))
    n, _, hh, ww = h.shape
    h = h.reshape(n, GROUPS, mid // GROUPS, hh, ww).transpose(0, 2, 1, 3, 4).reshape(n, mid, hh, ww)
    h = np.maximum(P.bn(_group_conv1x1(h, P.conv(cout, mid // GROUPS, 1, g=GAIN_BRANCH), GROUPS)), 0)
    if cin == cout:
        return h + x
    return h + P.bn(_conv(x, P.conv(cout, cin, 1, act=False), 1, 0))


def shufflenet(x, conv_w, bn_gamma, bn_beta, bn_mean, bn_var, fc_w, fc_b, out,
               batch_size, height, width, chan_unit, num_classes, eps):
    """ShuffleNet (groups 3, stage repeats 3, 7, 3): stem conv, max pool, three stages of units, 1x1 head, pool, Linear."""
    P = _Params(conv_w, bn_gamma, bn_beta, bn_mean, bn_var, eps)
    k = chan_unit
    widths = [6 * k, 60 * k, 120 * k, 240 * k]
    h = np.maximum(P.bn(_conv(x, P.conv(widths[0], 3, 3), 2, 1)), 0)
    h = _max_pool(h, 3, 2, 1)
    for stage, repeats in enumerate((3, 7, 3)):
        for i in range(repeats):
            h = _unit(P, h, widths[stage] if i == 0 else widths[stage + 1], widths[stage + 1])
    h = np.maximum(P.bn(_conv(h, P.conv(256 * k, widths[3], 1), 1, 0)), 0)
    P.done()
    pooled = h.mean(axis=(2, 3))
    f = 256 * k
    out[:] = pooled @ (fc_w * (1 / math.sqrt(f))) + fc_b * (1 / math.sqrt(f))
