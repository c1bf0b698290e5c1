import numpy as np

# Activations are kept channel-first inside, (C N H W): every convolution is then one matmul of the
# filters (O x KH*KW*C) with an im2col matrix built from whole image rows.
_IM2COL_LIMIT = 1 << 24   # largest im2col matrix (elements); one image above it: one matmul per kernel tap


def _conv2d(x, w, stride, pad):
    """Convolution without bias: x (C N H W), w (O C KH KW) OIHW -> (O N OH OW),
    out[o, n, i, j] = sum_{c, p, q} w[o, c, p, q] * xpad[c, n, i*stride + p, j*stride + q]."""
    C, N, H, W = x.shape
    O, _, KH, KW = w.shape
    OH, OW = (H + 2 * pad - KH) // stride + 1, (W + 2 * pad - KW) // stride + 1
    if KH == 1 and KW == 1 and stride == 1 and pad == 0:
        return (w.reshape(O, C) @ x.reshape(C, N * H * W)).reshape(O, N, H, W)
    if pad:
        xp = np.zeros((C, N, H + 2 * pad, W + 2 * pad), dtype=x.dtype)
        xp[:, :, pad:pad + H, pad:pad + W] = x
    else:
        xp = x
    hs, ws = (OH - 1) * stride + 1, (OW - 1) * stride + 1
    wm = np.ascontiguousarray(w.transpose(0, 2, 3, 1))              # O KH KW C: im2col rows in (p, q, c) order
    per_image = KH * KW * C * OH * OW
    if per_image <= _IM2COL_LIMIT:
        # im2col over blocks of images, one matmul per block
        y = np.empty((O, N, OH, OW), dtype=x.dtype)
        nb = max(1, _IM2COL_LIMIT // per_image)
        for n0 in range(0, N, nb):
            b = min(nb, N - n0)
            cols = np.empty((KH, KW, C, b, OH, OW), dtype=x.dtype)
            for p in range(KH):
                for q in range(KW):
                    cols[p, q] = xp[:, n0:n0 + b, p:p + hs:stride, q:q + ws:stride]
            y[:, n0:n0 + b] = (wm.reshape(O, KH * KW * C) @ cols.reshape(KH * KW * C, b * OH * OW)).reshape(O, b, OH, OW)
        return y
    # one image is too big for im2col: one matmul per kernel tap over the whole batch
    y = np.zeros((O, N * OH * OW), dtype=x.dtype)
    for p in range(KH):
        for q in range(KW):
            y += np.ascontiguousarray(wm[:, p, q, :]) @ xp[:, :, p:p + hs:stride, q:q + ws:stride].reshape(C, N * OH * OW)
    return y.reshape(O, N, OH, OW)


def _max_pool(x, k, stride, pad):
    """Max pool over the last two axes of (C N H W), padding with -inf (PyTorch's MaxPool2d)."""
    C, N, H, W = x.shape
    OH, OW = (H + 2 * pad - k) // stride + 1, (W + 2 * pad - k) // stride + 1
    if pad:
        xp = np.full((C, N, H + 2 * pad, W + 2 * pad), -np.inf, dtype=x.dtype)
        xp[:, :, pad:pad + H, pad:pad + W] = x
    else:
        xp = x
    hs, ws = (OH - 1) * stride + 1, (OW - 1) * stride + 1
    out = xp[:, :, 0:hs:stride, 0:ws:stride].copy()
    for p in range(k):
        for q in range(k):
            np.maximum(out, xp[:, :, p:p + hs:stride, q:q + ws:stride], out=out)
    return out


def _filters(u, o, c, k, gain):
    """o filters of c x k x k from the packed values u (drawn in [-1, 1]): each filter is standardized
    over its fan_in = c*k*k values (mean removed, then scaled so its mean square is gain / fan_in)."""
    w = u.reshape(o, c * k * k)
    d = w - w.mean(axis=1).reshape(o, 1)
    s = np.sqrt((d * d).mean(axis=1)).reshape(o, 1)
    return (d * (np.sqrt(gain / (c * k * k)) / s)).reshape(o, c, k, k)


def _fc_weight(u, fin, fout, gain):
    """A fully connected weight, input-major (fin x fout), from the packed values u (drawn in [-1, 1]):
    each column (output unit) standardized over its fin values to mean 0 and mean square gain / fin."""
    w = u.reshape(fin, fout)
    d = w - w.mean(axis=0)
    return d * (np.sqrt(gain / fin) / np.sqrt((d * d).mean(axis=0)))


class _Unpack:
    """Walks the packed arrays in the documented order."""

    def __init__(self, conv_w, conv_b, bn, eps):
        self.conv_w, self.conv_b, self.bn, self.eps = conv_w, conv_b, bn, eps
        self.ow = self.ob = 0

    def conv_bn_relu(self, x, o):
        """3x3 convolution (padding 1, bias; filter standardized with gain 2),
        inference batch norm, ReLU."""
        c = x.shape[0]
        n = o * c * 9
        w = _filters(self.conv_w[self.ow:self.ow + n], o, c, 3, 2.0)
        b = self.conv_b[self.ob:self.ob + o].reshape(o, 1, 1, 1)
        g, beta, m, v = (a[self.ob:self.ob + o].reshape(o, 1, 1, 1) for a in self.bn)
        self.ow += n
        self.ob += o
        y = _conv2d(x, w, 1, 1) + b
        return np.maximum((y - m) * (g / np.sqrt(v + self.eps)) + beta, 0)


def regnet(x, conv_w, conv_b, bn_gamma, bn_beta, bn_mean, bn_var, fc_w, fc_b, out,
           batch_size, height, width, num_classes, C, eps):
    """KernelBench level 3 #27 RegNet (3 stages, widths C, 2C, 4C) inference; channel-first (C N H W) inside."""
    u = _Unpack(conv_w, conv_b, (bn_gamma, bn_beta, bn_mean, bn_var), eps)
    h = x.transpose(1, 0, 2, 3)
    for mult in (1, 2, 4):
        h = u.conv_bn_relu(h, mult * C)
        h = u.conv_bn_relu(h, mult * C)
        h = _max_pool(h, 2, 2, 0)
    h = h.mean(axis=(2, 3)).T                                          # global average pool
    out[:] = h @ _fc_weight(fc_w, 4 * C, num_classes, 1.0) + fc_b
