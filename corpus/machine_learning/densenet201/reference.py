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


_BLOCK_LAYERS = [6, 12, 48, 32]


def _avg_pool2(x):
    """2 x 2 average pool, stride 2 (an odd last row or column is dropped)."""
    n, c, h, w = x.shape
    return x[:, :, :h // 2 * 2, :w // 2 * 2].reshape(n, c, h // 2, 2, w // 2, 2).mean(axis=(3, 5))


def densenet201(x, conv_w, bn_gamma, bn_beta, bn_mean, bn_var, fc_w, fc_b, out,
          batch_size, height, width, growth_rate, num_classes, eps):
    """DenseNet201: stem, dense blocks of [6, 12, 48, 32] layers with transitions between them, final BatchNorm + ReLU, pool, Linear."""
    P = _Params(conv_w, bn_gamma, bn_beta, bn_mean, bn_var, eps)
    k = growth_rate
    h = _max_pool(np.maximum(P.bn(_conv(x, P.conv(2 * k, 3, 7), 2, 3)), 0), 3, 2, 1)
    c = 2 * k
    for b, layers in enumerate(_BLOCK_LAYERS):
        n, _, hh, ww = h.shape
        feats = np.empty((n, c + layers * k, hh, ww), dtype=h.dtype)  # the running torch.cat
        feats[:, :c] = h
        for i in range(layers):
            new = _conv(np.maximum(P.bn(feats[:, :c]), 0), P.conv(k, c, 3), 1, 1)
            feats[:, c:c + k] = new
            c += k
        h = feats
        if b != len(_BLOCK_LAYERS) - 1:  # transition: BatchNorm, ReLU, 1x1 conv halving the channels, 2x2 average pool
            h = _avg_pool2(_conv(np.maximum(P.bn(h), 0), P.conv(c // 2, c, 1), 1, 0))
            c //= 2
    h = np.maximum(P.bn(h), 0)
    P.done()
    pooled = h.mean(axis=(2, 3))
    out[:] = pooled @ (fc_w * (1 / math.sqrt(c))) + fc_b * (1 / math.sqrt(c))
