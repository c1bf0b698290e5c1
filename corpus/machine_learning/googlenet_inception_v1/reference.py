import math

import numpy as np

# conv weights are conv_w values times sqrt(g/fan_in), He's uniform bounds: g = 6 before a ReLU, 3 without;
# conv biases are conv_b values times 1/sqrt(fan_in), PyTorch's default bias bound
GAIN_ACT = 6.0
GAIN_LINEAR = 3.0


class _Params:
    """Hands out the packed parameters in network order: conv_w holds every convolution's filter
    (O x C x K x K, row-major) one after another, conv_b every convolution's bias."""

    def __init__(self, conv_w, conv_b):
        self.conv_w, self.conv_b = conv_w, conv_b
        self.w_at = 0
        self.b_at = 0

    def conv(self, o, c, k, act):
        n = o * c * k * k
        fan_in = c * k * k
        w = self.conv_w[self.w_at:self.w_at + n].reshape(o, c, k, k) * math.sqrt((GAIN_ACT if act else GAIN_LINEAR) / fan_in)
        b = self.conv_b[self.b_at:self.b_at + o] * (1 / math.sqrt(fan_in))
        self.w_at += n
        self.b_at += o
        return w, b

    def done(self):
        assert self.w_at == self.conv_w.size and self.b_at == self.conv_b.size


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


# inception modules (name, in, out_1x1, reduce_3x3, out_3x3, reduce_5x5, out_5x5, pool_proj) in units of
# width_unit (8 upstream), and the stride-2 max pools between them
_INCEPTION = [('3a', 24, 8, 12, 16, 2, 4, 4), ('3b', 32, 16, 16, 24, 4, 12, 8), 'pool', ('4a', 60, 24, 12, 26, 2, 6, 8), ('4b', 64, 20, 14, 28, 3, 8, 8), ('4c', 64, 16, 16, 32, 3, 8, 8), ('4d', 64, 14, 18, 36, 4, 8, 8), ('4e', 66, 32, 20, 40, 4, 16, 16), 'pool', ('5a', 104, 32, 20, 40, 4, 16, 16), ('5b', 104, 48, 24, 48, 6, 16, 16)]


def _conv_bias(P, x, o, k, stride, pad, act):
    w, b = P.conv(o, x.shape[1], k, act)
    return _conv(x, w, stride, pad) + b[:, None, None]


def _inception(P, x, u, out_1x1, reduce_3x3, out_3x3, reduce_5x5, out_5x5, pool_proj):
    """Four linear branches (no activations, as upstream) concatenated over channels."""
    b1 = _conv_bias(P, x, out_1x1 * u, 1, 1, 0, False)
    b3 = _conv_bias(P, _conv_bias(P, x, reduce_3x3 * u, 1, 1, 0, False), out_3x3 * u, 3, 1, 1, False)
    b5 = _conv_bias(P, _conv_bias(P, x, reduce_5x5 * u, 1, 1, 0, False), out_5x5 * u, 5, 1, 2, False)
    bp = _conv_bias(P, _max_pool(x, 3, 1, 1), pool_proj * u, 1, 1, 0, False)
    return np.concatenate([b1, b3, b5, bp], axis=1)


def googlenet_inception_v1(x, conv_w, conv_b, fc_w, fc_b, out,
                           batch_size, height, width, width_unit, num_classes):
    """GoogLeNet (Inception v1) as KernelBench writes it: ReLU only in the stem, linear inception modules."""
    P = _Params(conv_w, conv_b)
    u = width_unit
    h = _max_pool(np.maximum(_conv_bias(P, x, 8 * u, 7, 2, 3, True), 0), 3, 2, 1)
    h = np.maximum(_conv_bias(P, h, 8 * u, 1, 1, 0, True), 0)
    h = _max_pool(np.maximum(_conv_bias(P, h, 24 * u, 3, 1, 1, True), 0), 3, 2, 1)
    for module in _INCEPTION:
        if module == 'pool':
            h = _max_pool(h, 3, 2, 1)
        else:
            h = _inception(P, h, u, *module[2:])
    P.done()
    pooled = h.mean(axis=(2, 3))
    f = 128 * u
    out[:] = pooled @ (fc_w * (1 / math.sqrt(f))) + fc_b * (1 / math.sqrt(f))
